# 1 "cond.br"



int a_and_not_b;
# 13 "cond.br"
int elif_taken;




int else_taken;
# 30 "cond.br"
int unsigned_rules;


int arithmetic;


int predefined;
