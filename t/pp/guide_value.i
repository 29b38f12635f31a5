# 1 "guide_value.br"



int main()
{
    int a = 15;
    return 0;
}
