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
# and for t/gen/refused.br, one brgen error each:
#   malformed:     the document has no decls;
#   stream-init:   host stream a gets an initializer;
#   stream-size:   host stream a loses its size;
#   global-stream: the declaration of stream c moves to file scope;
#   host-indexof:  host code's s + 1.0f becomes indexof(c) + 1.0f;
#   pointer:       kernel k's -a becomes &a;
#   expr:          kernel k's -a becomes a compound literal;
#   stmt:          kernel m's statement becomes a goto;
#   call:          kernel m calls puts, which is no function of the file;
#   builtin:       kernel k calls the built-in function nosuch;
#   ctor:          kernel k's float2(1.0f, 2.0f) constructs a void;
#   reduce:        reduce function r's input stream becomes a value;
#   string:        kernel twice's 2.0f becomes a string;
#   subarray:      kernel g passes its stream a where first takes t[];
#   version:       the document says brast version 2.
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
elif kind == "malformed":
    del d["decls"]
elif kind in ("stream-init", "stream-size"):
    v = next(n for n in nodes(d) if n.get("k") == "var" and
             n["name"] == "a")
    if kind == "stream-init":
        v["init"] = {"k": "int", "at": v["at"], "text": "0", "value": 0,
                     "ty": {"t": "int"}}
    else:
        v["type"]["dims"][0] = None
elif kind == "global-stream":
    blk = next(n for n in nodes(d) if n.get("k") == "block" and
               any(i.get("k") == "decl" and i["vars"][0]["name"] == "c"
                   for i in n["items"]))
    dc = next(i for i in blk["items"] if i.get("k") == "decl" and
              i["vars"][0]["name"] == "c")
    d["decls"].insert(0, dc)
elif kind == "host-indexof":
    b = next(n for n in nodes(d) if n.get("k") == "binop" and
             n["l"].get("name") == "s")
    c = next(n for n in nodes(d) if n.get("k") == "id" and
             n["name"] == "c")
    b["l"] = {"k": "indexof", "at": b["l"]["at"], "e": c,
              "ty": {"t": "float"}}
elif kind in ("pointer", "expr"):
    u = next(n for n in nodes(d) if n.get("k") == "unop" and n["op"] == "-")
    if kind == "pointer":
        u["op"] = "&"
    else:
        u["k"], u["type"] = "compound", u["ty"]
        u["init"] = {"k": "initlist", "at": u["at"], "items": []}
        del u["op"], u["e"]
elif kind == "stmt":
    m = next(n for n in d["decls"] if n.get("name") == "m")
    st = m["body"]["items"][0]
    m["body"]["items"][0] = {"k": "goto", "at": st["at"], "label": "l"}
elif kind == "call":
    c = next(n for n in nodes(d) if n.get("k") == "call" and
             n["fn"].get("name") == "twice")
    c["fn"] = {"k": "id", "at": c["fn"]["at"], "name": "puts",
               "ty": {"t": "unknown"}}
    c["callee"] = "host"
elif kind == "builtin":
    c = next(n for n in nodes(d) if n.get("k") == "call" and
             n.get("builtin") == "sqrt")
    c["builtin"] = c["fn"]["name"] = "nosuch"
elif kind == "ctor":
    c = next(n for n in nodes(d) if n.get("k") == "ctor")
    c["type"] = c["ty"] = {"t": "void"}
elif kind == "reduce":
    r = next(n for n in d["decls"] if n.get("name") == "r")
    r["type"]["params"][0]["role"] = "value"
elif kind == "string":
    tw = next(n for n in d["decls"] if n.get("name") == "twice")
    f = next(n for n in nodes(tw) if n.get("k") == "float")
    f["k"], f["text"], f["ty"] = "string", '"two"', {
        "t": "array", "of": {"t": "char"}, "size": None}
    del f["value"]
elif kind == "subarray":
    c = next(n for n in nodes(d) if n.get("k") == "call" and
             n["fn"].get("name") == "first")
    g = next(n for n in d["decls"] if n.get("name") == "g")
    a = g["type"]["params"][1]
    c["args"][0] = {"k": "id", "at": c["args"][0]["at"], "name": "a",
                    "ref": a["id"], "ty": {"t": "float"}}
elif kind == "version":
    d["brast"] = 2
print(json.dumps(d, separators=(",", ":")))
