#ifndef SCALE_H
#define SCALE_H
#include "factor.h"
#define SCALE(x) ((x) * FACTOR)
#endif
