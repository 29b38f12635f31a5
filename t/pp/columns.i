# 1 "columns.br"
int	a = 1;
    int b                 = 2;

  int c = 2  +  3;   int d = 4;
# 16 "columns.br"
int far_below = 5;
int e = 6
                + 7;
