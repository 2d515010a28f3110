"""From a @hadron.jit function's AST to hd IR, through the C++ builder.

The kernel's body is *interpreted* at trace time: Python values (constexprs,
layouts, ints) are computed in Python, operations on runtime values
(``hl.tensor``) call the builder. Control flow on runtime values becomes scf
(``if`` -> hl if_, ``for i in range(...)`` -> for_range, ``while`` ->
while_); on compile-time values it runs in Python (an ``if`` on a constexpr
picks a branch; ``hl.static_range`` unrolls).

Before each operation the interpreter tells the builder the Python location
(``_builder.set_location``), so builder errors and the IR's locations name the
kernel's file:line; errors raised in Python (a type check in hl) are given
the same location. Every error reaches the user as hadron.CompileError.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import operator
import textwrap
from typing import Any, Callable, Dict, List, Optional

from ._errors import CompileError
from ._lazy import builder as _builder
from .language import core as hl

_BINOPS: Dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.Pow: operator.pow,
}
_CMPOPS: Dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
    ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class ParsedFunction:
    """A function's AST with line numbers of its file, parsed once."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.filename = inspect.getsourcefile(fn) or "<unknown>"
        lines, first = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, first - 1)
        fdef = tree.body[0]
        if not isinstance(fdef, ast.FunctionDef):
            raise TypeError(f"{fn.__qualname__}: hadron.jit takes a plain `def` function")
        self.fdef = fdef
        self.source = "".join(lines)
        self.globals = fn.__globals__
        self.closure = {}
        if fn.__closure__:
            self.closure = {n: c.cell_contents
                            for n, c in zip(fn.__code__.co_freevars, fn.__closure__)}


def _assigned_names(stmts: List[ast.stmt]) -> List[str]:
    """Names a block assigns, in order of first assignment."""
    seen: Dict[str, None] = {}
    for stmt in stmts:
        for node in ast.walk(stmt):
            targets: List[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, (ast.For, ast.comprehension)):
                targets = [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        seen.setdefault(n.id, None)
    return list(seen)


def _is_runtime(v: Any) -> bool:
    return isinstance(v, hl.tensor)


def _as_runtime(v: Any, what: str) -> hl.tensor:
    """A value carried through scf: tensors as they are, Python numbers as
    constants (ints i32, floats f32, bools i1)."""
    v = hl._unwrap(v)
    if isinstance(v, hl.tensor):
        return v
    if isinstance(v, bool):
        return hl.tensor(_builder.constant(v, hl.int1.handle))
    if isinstance(v, int):
        return hl.tensor(_builder.constant(v, hl.int32.handle))
    if isinstance(v, float):
        return hl.tensor(_builder.constant(v, hl.float32.handle))
    raise TypeError(f"{what} is {type(v).__name__} {v!r}, which cannot change under runtime "
                    "control flow (only tensors and numbers can)")


class Interpreter(ast.NodeVisitor):
    """Runs one function body (the kernel, or a @jit function it calls)."""

    def __init__(self, parsed: ParsedFunction, scope: Dict[str, Any]) -> None:
        self.parsed = parsed
        self.scope = scope
        self.node: Optional[ast.AST] = None

    # -- locations and errors ------------------------------------------------

    def at(self, node: ast.AST) -> None:
        """Builder calls from now on report `node`'s location."""
        line = getattr(node, "lineno", None)
        if line is not None:
            _builder.set_location(self.parsed.filename, line, node.col_offset + 1)

    def where(self, node: ast.AST) -> str:
        return f"{self.parsed.filename}:{node.lineno}:{node.col_offset + 1}"

    def visit(self, node: ast.AST) -> Any:
        try:
            return super().visit(node)
        except (CompileError, _Return):
            raise
        except Exception as e:  # a Python-side check in hl, or the user's own
            if not hasattr(node, "lineno"):
                raise
            msg = str(e) or type(e).__name__
            if isinstance(e, NameError) or isinstance(e, AttributeError):
                msg = f"{type(e).__name__}: {msg}"
            raise CompileError(f"{self.where(node)}: error: {msg}") from e

    def generic_visit(self, node: ast.AST) -> Any:
        raise SyntaxError(f"{type(node).__name__} is not supported in a hadron kernel")

    # -- statements ------------------------------------------------------------

    def run_block(self, stmts: List[ast.stmt]) -> None:
        for s in stmts:
            self.visit(s)

    def visit_Expr(self, node: ast.Expr) -> None:
        self.visit(node.value)

    def visit_Pass(self, node: ast.Pass) -> None:
        pass

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scope[target.id] = hl._unwrap(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = list(value)
            if len(values) != len(target.elts):
                raise ValueError(f"cannot unpack {len(values)} values into {len(target.elts)}")
            for t, v in zip(target.elts, values):
                self.assign(t, v)
        else:
            raise SyntaxError(f"assignment to {type(target).__name__} is not supported")

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.visit(node.value)
        for t in node.targets:
            self.assign(t, value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.visit(node.value))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise SyntaxError("augmented assignment is supported on names only")
        current = self.visit_Name(ast.Name(id=node.target.id, ctx=ast.Load()))
        rhs = self.visit(node.value)
        self.at(node)
        self.scope[node.target.id] = _BINOPS[type(node.op)](current, rhs)

    def visit_Return(self, node: ast.Return) -> None:
        raise _Return(None if node.value is None else self.visit(node.value))

    def visit_Assert(self, node: ast.Assert) -> None:
        cond = self.visit(node.test)
        msg = "" if node.msg is None else str(self.visit(node.msg))
        self.at(node)
        if _is_runtime(cond):
            hl.device_assert(cond, msg)
        elif not cond:
            raise AssertionError(f"assertion failed: {msg}" if msg else "assertion failed")

    def _no_escape(self, stmts: List[ast.stmt], what: str) -> None:
        for s in stmts:
            for n in ast.walk(s):
                if isinstance(n, (ast.Return, ast.Break, ast.Continue)):
                    raise CompileError(
                        f"{self.where(n)}: error: `{type(n).__name__.lower()}` inside {what} "
                        "on a runtime value is not supported")

    def _carried(self, stmts: List[ast.stmt], extra: List[str] = ()) -> List[str]:
        """Names live before a block and assigned in it: the values scf carries."""
        names = _assigned_names(stmts) + list(extra)
        return [n for n in dict.fromkeys(names) if n in self.scope]

    def _bind(self, names: List[str], handles: List[Any], base: Dict[str, Any]) -> Dict[str, Any]:
        scope = dict(base)
        for n, h in zip(names, handles):
            scope[n] = hl.tensor(h, base[n].roots if isinstance(base[n], hl.tensor) else frozenset())
        return scope

    def _sub(self, scope: Dict[str, Any]) -> "Interpreter":
        return Interpreter(self.parsed, scope)

    def _results(self, sub: "Interpreter", names: List[str], types: List[str],
                 what: str, node: ast.AST) -> List[Any]:
        out = []
        for n, t in zip(names, types):
            if n not in sub.scope:
                raise CompileError(f"{self.where(node)}: error: `{n}` is not defined at the end "
                                   f"of {what}")
            sub.at(node)
            v = _as_runtime(sub.scope[n], f"`{n}`")
            if t is not None and v.type != t:
                raise CompileError(
                    f"{self.where(node)}: error: `{n}` is {t} before {what} but {v.type} "
                    "after it; the types must stay the same (convert with .to())")
            out.append(v.handle)
        return out

    def visit_If(self, node: ast.If) -> None:
        cond = self.visit(node.test)
        if not _is_runtime(cond):
            self.run_block(node.body if cond else node.orelse)
            return
        self._no_escape(node.body + node.orelse, "an `if`")
        then_names = _assigned_names(node.body)
        else_names = _assigned_names(node.orelse)
        # Values that leave the if: live before it, or assigned in both branches.
        names = [n for n in dict.fromkeys(then_names + else_names)
                 if n in self.scope or (n in then_names and n in else_names)]
        if not node.orelse:
            names = [n for n in names if n in self.scope]
        before = {n: _as_runtime(self.scope[n], f"`{n}`").type for n in names if n in self.scope}
        base = dict(self.scope)
        then_types: List[Any] = []

        def branch(stmts: List[ast.stmt], label: str) -> List[Any]:
            sub = self._sub(dict(base))
            sub.run_block(stmts)
            want = [before.get(n) for n in names] if not then_types else then_types
            handles = self._results(sub, names, want, f"the {label} branch", node)
            if not then_types:
                then_types.extend(hl.tensor(h).type for h in handles)
            return handles

        self.at(node)
        results = _builder.if_(cond.handle, lambda: branch(node.body, "then"),
                         # Without an else, one yields the values as they were.
                         (lambda: branch(node.orelse, "else")) if node.orelse or names
                         else None)
        for n, h in zip(names, results):
            self.scope[n] = hl.tensor(h, base[n].roots if isinstance(base.get(n), hl.tensor)
                                      else frozenset())

    def _loop_entry(self, names: List[str]) -> tuple:
        """A loop's carried values as runtime values, their types, and the
        scope its body starts from."""
        inits = [_as_runtime(self.scope[n], f"`{n}`") for n in names]
        base = dict(self.scope)
        base.update(zip(names, inits))
        return inits, [v.type for v in inits], base

    def _loop_exit(self, names: List[str], results: List[Any], base: Dict[str, Any]) -> None:
        for n, h in zip(names, results):
            self.scope[n] = hl.tensor(h, base[n].roots)

    def visit_For(self, node: ast.For) -> None:
        if node.orelse:
            raise SyntaxError("for ... else is not supported")
        it = node.iter
        callee = self.visit(it.func) if isinstance(it, ast.Call) else None
        if callee is not builtins.range:
            for v in self.visit(it):  # static: hl.static_range, a tuple of constexprs
                self.assign(node.target, v)
                self.run_block(node.body)
            return
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise TypeError("range takes 1 to 3 positional arguments")
        bounds = [self.visit(a) for a in it.args]
        begin, end, step = ([0] + bounds + [1])[:3] if len(bounds) == 1 else (
            (bounds + [1])[:3])
        for b in (begin, end, step):
            if not (_is_runtime(b) or isinstance(hl._unwrap(b), int)):
                raise TypeError(f"range bounds must be ints or i32 values, got {b!r}")
        if not isinstance(node.target, ast.Name):
            raise SyntaxError("the loop variable must be a name")
        self._no_escape(node.body, "a `for` loop")
        names = [n for n in self._carried(node.body) if n != node.target.id]
        self.at(node)
        inits, types, base = self._loop_entry(names)

        def body(i: Any, values: List[Any]) -> List[Any]:
            scope = self._bind(names, values, base)
            scope[node.target.id] = hl.tensor(i)
            sub = self._sub(scope)
            sub.run_block(node.body)
            return self._results(sub, names, types, "an iteration", node)

        results = _builder.for_range(hl._h(begin), hl._h(end), hl._h(step),
                               [v.handle for v in inits], body)
        self._loop_exit(names, results, base)

    def visit_While(self, node: ast.While) -> None:
        if node.orelse:
            raise SyntaxError("while ... else is not supported")
        self._no_escape(node.body, "a `while` loop")
        names = self._carried(node.body)
        self.at(node)
        inits, types, base = self._loop_entry(names)

        def condition(values: List[Any]) -> Any:
            sub = self._sub(self._bind(names, values, base))
            c = sub.visit(node.test)
            sub.at(node.test)
            return _as_runtime(c, "the condition").handle

        def body(values: List[Any]) -> List[Any]:
            sub = self._sub(self._bind(names, values, base))
            sub.run_block(node.body)
            return self._results(sub, names, types, "an iteration", node)

        results = _builder.while_([v.handle for v in inits], condition, body)
        self._loop_exit(names, results, base)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        raise SyntaxError("functions defined inside a kernel are not supported; "
                          "define a @hadron.jit function outside it")

    # -- expressions -----------------------------------------------------------

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def visit_Name(self, node: ast.Name) -> Any:
        n = node.id
        if n in self.scope:
            return self.scope[n]
        if n in self.parsed.closure:
            return self.parsed.closure[n]
        if n in self.parsed.globals:
            return hl._unwrap(self.parsed.globals[n])
        if hasattr(builtins, n):
            return getattr(builtins, n)
        raise NameError(f"name `{n}` is not defined")

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        return hl._unwrap(getattr(self.visit(node.value), node.attr))

    def visit_Tuple(self, node: ast.Tuple) -> Any:
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node: ast.List) -> Any:
        return [self.visit(e) for e in node.elts]

    def visit_Dict(self, node: ast.Dict) -> Any:
        return {self.visit(k): self.visit(v) for k, v in zip(node.keys, node.values)}

    def visit_JoinedStr(self, node: ast.JoinedStr) -> Any:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                spec = "" if v.format_spec is None else self.visit(v.format_spec)
                parts.append(format(self.visit(v.value), spec))
        return "".join(parts)

    def visit_Slice(self, node: ast.Slice) -> Any:
        return slice(*(None if e is None else self.visit(e)
                       for e in (node.lower, node.upper, node.step)))

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        value = self.visit(node.value)
        index = self.visit(node.slice)
        self.at(node)
        return hl._unwrap(value[index])

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        a, b = self.visit(node.left), self.visit(node.right)
        self.at(node)
        return _BINOPS[type(node.op)](a, b)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.visit(node.operand)
        self.at(node)
        if isinstance(node.op, ast.Not):
            if _is_runtime(v):
                return v == 0 if v.dtype != hl.int1 else v ^ True
            return not v
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
        return ~v

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        result = self.visit(node.values[0])
        for e in node.values[1:]:
            if not _is_runtime(result):
                if (not result) if is_and else result:
                    return result  # Python's short circuit on compile-time values
                result = self.visit(e)
                continue
            rhs = self.visit(e)
            self.at(node)
            result = (result & rhs) if is_and else (result | rhs)
        return result

    def visit_Compare(self, node: ast.Compare) -> Any:
        left = self.visit(node.left)
        result = None
        for op, right_node in zip(node.ops, node.comparators):
            right = self.visit(right_node)
            self.at(node)
            r = _CMPOPS[type(op)](left, right)
            result = r if result is None else (result & r if _is_runtime(r) or
                                               _is_runtime(result) else result and r)
            left = right
        return result

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.visit(node.test)
        if not _is_runtime(cond):
            return self.visit(node.body if cond else node.orelse)
        a, b = self.visit(node.body), self.visit(node.orelse)
        self.at(node)
        return hl.where(cond, a, b)

    def visit_Call(self, node: ast.Call) -> Any:
        fn = self.visit(node.func)
        args: List[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(self.visit(a.value))
            else:
                args.append(self.visit(a))
        kwargs: Dict[str, Any] = {}
        for k in node.keywords:
            if k.arg is None:
                kwargs.update(self.visit(k.value))
            else:
                kwargs[k.arg] = self.visit(k.value)
        self.at(node)
        if fn in (builtins.min, builtins.max) and any(_is_runtime(a) for a in args) \
                and len(args) == 2 and not kwargs:
            return (hl.minimum if fn is builtins.min else hl.maximum)(*args)
        result = fn(*args, **kwargs)
        if hasattr(result, "__self__") and result is fn:
            return result
        return hl._unwrap(result)


def call_inline(parsed: ParsedFunction, bound: Dict[str, Any]) -> Any:
    """Runs a @jit function called from a kernel: its body becomes part of
    the caller's IR; returns what its `return` gives."""
    interp = Interpreter(parsed, dict(bound))
    try:
        interp.run_block(parsed.fdef.body)
    except _Return as r:
        return r.value
    return None
