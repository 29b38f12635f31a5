#!/bin/sh
# cl2h.sh NAME < FILE.cl > FILE.cl.h - an OpenCL C file as a C string
# constant NAME, for programs that carry their kernels inside them.
echo "/* generated from OpenCL C by bench/cl2h.sh; do not edit */"
echo "static const char $1[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/'
echo ";"
