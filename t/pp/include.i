# 1 "include.br"
# 1 "inc/scale.h" 1
# 1 "inc/factor.h" 1
# 4 "inc/scale.h" 2
# 3 "include.br" 2

kernel void scale(float a<>, out float b<>)
{
	b = ((a) * 2.0f);
}
# 1 "inc/empty.h" 1
# 9 "include.br" 2
float after = 2.0f;
