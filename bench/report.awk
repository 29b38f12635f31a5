# report.awk - the benchmark table from run.sh's result lines.
#
#   awk -v host=H -v date=D -v csv=FILE -v dat=FILE -f report.awk raw.txt
#
# Input: one line per program run (bench.h's format). When a version ran
# several times, the run with the median median_ms is kept. Output: a
# Markdown table on stdout, the same as CSV in CSV, and the ratios for
# gnuplot in DAT.
#
# ratio: speed of the Brook program over the version it is measured
# against on the same device and data: hand-written OpenCL on the OpenCL
# device, plain C on the CPU (median time of the other / median time of
# the Brook program; above 1 the Brook program is faster).
# cuBLAS: where a case has a "cublas" row (gpu.sh adds them for
# matmult_tiled and matmult_reg), its Brook row also says whether it
# reaches half of cuBLAS's speed (the stretch target).
# chain: under the table, the mean of each version's process medians on
# the OpenCL device and their ratio, as each process draws its launch
# rate on a GPU host (README.md).
# copy: a bandwidth case's GB/s over the copy case's GB/s of the
# reference version on the same backend, in the same run; for a row of K
# calls a run (NAME_xK), over copy_xK's.

function field(line, key,    i, rest) {
	i = index(line, " " key "=")
	if (i == 0)
		return ""
	rest = substr(line, i + length(key) + 2)
	if (substr(rest, 1, 1) == "\"") {
		rest = substr(rest, 2)
		return substr(rest, 1, index(rest, "\"") - 1)
	}
	i = index(rest, " ")
	return i ? substr(rest, 1, i - 1) : rest
}

# the targets of the issue, by case and backend (0: none)
function target(c, backend) {
	if (c == "startup" || base(c) == "copy" || backend == "host")
		return 0
	if (backend == "cpu")
		return 0.8
	if (c == "chain")
		return 1 / 1.2
	return 0.95
}

# NAME_xK: K calls a run (run.sh's CALLS); base() is NAME, calls() "_xK"
function base(c) {
	sub(/_x[0-9]+$/, "", c)
	return c
}

function calls(c) {
	return substr(c, length(base(c)) + 1)
}

function bandwidth_case(c) {
	c = base(c)
	return c == "saxpy" || c == "sum" || c == "rowsum"
}

function fmt(x, d) {
	return x == "" ? "-" : sprintf("%." d "f", x)
}

{
	line = " " $0
	c = field(line, "case")
	if (c == "")
		next
	k = c SUBSEP field(line, "size") SUBSEP field(line, "impl") SUBSEP \
		field(line, "backend")
	if (!(k in n)) {
		key2 = c SUBSEP field(line, "size")
		if (!(key2 in seen)) {
			seen[key2] = 1
			order[++ncs] = key2
		}
		n[k] = 0
	}
	ms = field(line, "median_ms") + 0
	ok = field(line, "ok")
	# failed runs sort last
	if (ok != "1")
		ms = 1e30
	i = ++n[k]
	while (i > 1 && sortms[k, i - 1] > ms) {
		sortms[k, i] = sortms[k, i - 1]
		sortline[k, i] = sortline[k, i - 1]
		i--
	}
	sortms[k, i] = ms
	sortline[k, i] = line
	if (field(line, "impl") == "opencl" && field(line, "device") != "-")
		dev["opencl"] = field(line, "device")
}

# M["n"]: how many of version K's runs succeeded; M["mean"]: the mean of
# their median_ms, or "" when none did
function mean_ms(k, m,    i, sum) {
	m["n"] = sum = 0
	for (i = 1; k in n && i <= n[k]; i++)
		if (field(sortline[k, i], "ok") == "1") {
			sum += sortms[k, i]
			m["n"]++
		}
	m["mean"] = m["n"] ? sum / m["n"] : ""
}

# the kept run of version K: its line, or "" when none succeeded
function pick(k,    m) {
	if (!(k in n))
		return ""
	m = int((n[k] + 1) / 2)
	return field(sortline[k, m], "ok") == "1" ? sortline[k, m] : ""
}

function status_of(k,    m) {
	if (!(k in n))
		return "not run"
	return field(sortline[k, int((n[k] + 1) / 2)], "ok")
}

END {
	nv = split("brook opencl cublas brook c brook", impls, " ")
	split("opencl opencl opencl cpu cpu host", backs, " ")
	print "| case | size | backend | impl | median ms | GB/s | GFLOP/s | ratio | target | of copy |"
	print "|---|---|---|---|---:|---:|---:|---:|---|---:|"
	print "host,date,case,size,backend,impl,device,runs,median_ms,min_ms,gbs,gflops,ok,ratio,target,met,copy_frac" > csv
	print "# case ratio_opencl ratio_cpu" > dat
	for (o = 1; o <= ncs; o++) {
		split(order[o], cs, SUBSEP)
		c = cs[1]; size = cs[2]
		r["opencl"] = r["cpu"] = "-"
		for (v = 1; v <= nv; v++) {
			impl = impls[v]; b = backs[v]
			k = c SUBSEP size SUBSEP impl SUBSEP b
			if (!(k in n))
				continue
			l = pick(k)
			ms = l == "" ? "" : field(l, "median_ms")
			gbs = l == "" ? "" : field(l, "gbs")
			gfl = l == "" ? "" : field(l, "gflops")
			ratio = ""; tgt = ""; met = ""; frac = ""
			if (impl == "brook") {
				ref = pick(c SUBSEP size SUBSEP (b == "cpu" ? "c" : "opencl") SUBSEP b)
				if (l != "" && ref != "" && ms > 0)
					ratio = field(ref, "median_ms") / ms
				if (target(c, b) > 0) {
					tgt = sprintf(">= %.2f", target(c, b))
					met = ratio == "" ? "no result" : (ratio >= target(c, b) - 1e-9 ? "met" : "MISSED")
				}
				if (ratio != "" && b != "host")
					r[b] = sprintf("%.3f", ratio)
				cb = pick(c SUBSEP size SUBSEP "cublas" SUBSEP b)
				if (l != "" && cb != "")
					met = met sprintf("; >= 0.50 of cuBLAS: %.2f %s", field(cb, "median_ms") / ms, field(cb, "median_ms") / ms >= 0.5 ? "met" : "MISSED")
				if (c == "frontend" && l != "") {
					tgt = "< 40 ms"
					met = ms + 0 < 40 ? "met" : "MISSED"
				}
			}
			if (bandwidth_case(c) && l != "") {
				cp = ""
				for (s in seen) {
					split(s, ss, SUBSEP)
					if (ss[1] == "copy" calls(c))
						cp = pick(s SUBSEP (b == "cpu" ? "c" : "opencl") SUBSEP b)
				}
				if (cp != "" && field(cp, "gbs") > 0)
					frac = gbs / field(cp, "gbs")
				if (frac != "" && impl == "brook")
					met = met (met == "" ? "" : "; ") (frac >= 0.85 ? "bw met" : "bw MISSED")
			}
			st = status_of(k)
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", \
				c, size, b, impl, \
				l == "" ? "(" st ")" : fmt(ms, 3), \
				fmt(gbs, 2), fmt(gfl, 2), \
				ratio == "" ? "" : sprintf("%.3f", ratio), \
				tgt (met == "" ? "" : " " met), \
				frac == "" ? "" : sprintf("%.0f%%", 100 * frac)
			printf("%s,%s,%s,%s,%s,%s,\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", \
				host, date, c, size, b, impl, \
				l == "" ? "-" : field(l, "device"), \
				l == "" ? 0 : field(l, "runs"), ms, \
				l == "" ? "" : field(l, "min_ms"), gbs, gfl, st, \
				ratio == "" ? "" : sprintf("%.4f", ratio), \
				tgt, \
				met, frac == "" ? "" : sprintf("%.4f", frac)) > csv
		}
		if (r["opencl"] != "-" || r["cpu"] != "-")
			printf("%s/%s %s %s\n", c, size, r["opencl"], r["cpu"]) > dat
		# the chain on an OpenCL device: each process draws one of
		# two launch rates on a GPU host (RESULTS.md), so the median
		# of a few processes each way lands in either; the mean of
		# the processes' medians is told beside it
		if (c == "chain") {
			mean_ms(c SUBSEP size SUBSEP "brook" SUBSEP "opencl", chb)
			mean_ms(c SUBSEP size SUBSEP "opencl" SUBSEP "opencl", chr)
			if (chb["mean"] != "" && chr["mean"] != "" && chb["mean"] > 0)
				chain = sprintf("chain on the OpenCL device, by the mean of each version's process medians (a process draws its launch rate): Brook %.3f ms of %d, raw OpenCL %.3f ms of %d, ratio %.3f", \
					chb["mean"], chb["n"], chr["mean"], chr["n"], chr["mean"] / chb["mean"])
		}
		if (c == "startup") {
			bo = pick(c SUBSEP size SUBSEP "brook" SUBSEP "opencl")
			ho = pick(c SUBSEP size SUBSEP "opencl" SUBSEP "opencl")
			bc = pick(c SUBSEP size SUBSEP "brook" SUBSEP "cpu")
			if (bo != "" && ho != "")
				startup = sprintf("startup: libbrt's time before the first kernel, over the OpenCL driver's own: %.1f ms (Brook %.1f ms, raw OpenCL %.1f ms; target under 20 ms: %s)", \
					field(bo, "median_ms") - field(ho, "median_ms"), \
					field(bo, "median_ms"), field(ho, "median_ms"), \
					field(bo, "median_ms") - field(ho, "median_ms") < 20 ? "met" : "MISSED")
			if (bc != "")
				startup = startup sprintf("\nstartup on the CPU backend (all of it libbrt): %.1f ms", field(bc, "median_ms"))
		}
	}
	print ""
	if ("opencl" in dev)
		print "OpenCL device: " dev["opencl"]
	if (startup != "")
		print startup
	if (chain != "")
		print chain
}
