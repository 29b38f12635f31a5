# edit.py AST KIND: a checked AST edited into what brcheck refuses, for
# the brgen errors that stand behind brcheck's (seal.py then seals it):
#   sub-out:   "y = 2.0f" takes the first call statement as its value;
#   place:     the first binary '-' becomes an assignment '=';
#   incdec:    the first unary '-' becomes a prefix '++';
#   gather-op: STREAM_GATHER_FETCH becomes STREAM_SCATTER_ASSIGN;
#   noinit:    the first iterator stream loses its initializer;
#   op-fn:     the operation "fits" of a stream operator becomes the
#              function "misfit";
#   op-type:   streamGatherOp's first argument seems a stream of int.
import json
import sys


def nodes(n):
    if isinstance(n, dict):
        yield n
        for v in list(n.values()):
            yield from nodes(v)
    elif isinstance(n, list):
        for v in n:
            yield from nodes(v)


d = json.load(open(sys.argv[1]))
kind = sys.argv[2]
if kind == "sub-out":
    call = next(n for n in nodes(d) if n.get("k") == "expr" and
                n["e"].get("k") == "call")
    lit = next(n for n in nodes(d) if n.get("k") == "assign" and
               n["r"].get("k") == "float")
    lit["r"] = call["e"]
elif kind == "place":
    b = next(n for n in nodes(d) if n.get("k") == "binop" and
             n["op"] == "-")
    b["k"], b["op"] = "assign", "="
elif kind == "incdec":
    u = next(n for n in nodes(d) if n.get("k") == "unop" and n["op"] == "-")
    u["op"] = "++"
elif kind == "gather-op":
    i = next(n for n in nodes(d) if n.get("k") == "id" and
             n["name"] == "STREAM_GATHER_FETCH")
    i["name"] = "STREAM_SCATTER_ASSIGN"
elif kind == "noinit":
    v = next(n for n in nodes(d) if n.get("k") == "var" and
             "iter" in (n.get("quals") or []))
    v["init"] = None
elif kind == "op-fn":
    f = next(n for n in nodes(d) if n.get("k") == "func" and
             n["name"] == "misfit")
    i = next(n for n in nodes(d) if n.get("k") == "id" and
             n["name"] == "fits")
    i["name"], i["ref"] = "misfit", f["id"]
elif kind == "op-type":
    c = next(n for n in nodes(d) if n.get("k") == "call" and
             n["fn"].get("name") == "streamGatherOp")
    c["args"][0]["ty"]["of"] = {"t": "int"}
print(json.dumps(d, separators=(",", ":")))
