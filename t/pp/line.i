# 1 "line.br"
int a = 1;
# 100 "line.br"
int b = 100;
char *f = "line.br";
# 200 "renamed.br"
int c = 200; char *g = "renamed.br";

int d = 202;
# 7 "gcc-marker.c"
int e = 7;
