# ratios.gp - the bar chart of run.sh: per case, the Brook program's speed
# over the hand-written OpenCL (OpenCL device) and over plain C (CPU).
#   gnuplot -e "dat='ratios.dat'; png='ratios.png'; title='...'" ratios.gp
# ymax='2' clips the bars at 2 (a chain or startup ratio of 30 flattens
# the rest).
set terminal pngcairo size 1200,600 noenhanced font ",10"
set output png
set title title
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set datafile missing "-"
set ylabel "speed of Brook / speed of hand-written"
if (exists("ymax")) set yrange [0:ymax]; else set yrange [0:*]
set xtics rotate by -35 scale 0
set grid ytics
set key below
plot dat using 2:xtic(1) title "OpenCL device: Brook / hand-written OpenCL", \
	'' using 3 title "CPU: Brook CPU backend / plain C", \
	0.95 with lines dashtype 2 lc rgb "black" title "0.95", \
	0.8 with lines dashtype 3 lc rgb "gray40" title "0.8"
