# 1 "guide_define.br"
kernel int4 multiply (int4 a, int4 b)
{
    return a * b;
}




kernel
void sum (int4 i0<>, int4 i1<>, out int4 o0<>)
{
    int4 a = int4 (7, 1, 1, 1);
    int4 b = int4 (1, 1, 1, 1);

    o0 = i0 + i1 * multiply (a, b);
}





int c = multiply (a, b);
