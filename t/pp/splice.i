# 1 "splice.br"



int x = ((1) + (2))
                     ;
int y = 3;
int z = 4;
char *s = "one two"
    ;
