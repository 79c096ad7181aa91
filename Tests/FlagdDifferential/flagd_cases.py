"""Flag definitions and evaluation contexts for the flagd differential test, generated from a seed."""

from __future__ import annotations

import random

# ---------------------------------------------------------------------------------------------
# Generation


class Gen:
    """Builds one flag definition file's flags and the cases to evaluate on them."""

    EMAILS = ["ballmer@macrosoft.com", "jobs@orange.com", "staff@tweakkit.dev", "user@example.org",
              "x@y.z", "", "abc@abc.abc", "admin@corp.example"]
    TIERS = ["premium", "basic", "free", "Premium", "", "gold"]
    COUNTRIES = ["NL", "US", "DE", "FR", "nl", "JP"]
    VERSIONS = ["1.0.0", "2.0.0", "2.1.0", "1.9.9", "2.0.0-alpha", "2.0.0-alpha.1", "2.0.0-beta.2",
                "2.0.0-beta.11", "2.0.0-rc.1", "1.0.0+build.5", "v1.2.3", "V1.2.3", "1.2", "1", "v2",
                "01.2.3", "1.2.3.4", "not-a-version", "", " 1.2.3", "1.2.3 ", "3.0.1", "3.1.0",
                "1.2.3-0", "1.2.3-01", "1.2.3-a..b", "1.2-beta", "1-rc.1", "1.2+build", "10.20.30",
                "1.0.0-alpha+001", "999999999999999999999.0.0"]
    NAMES = ["jack", "queen", "ten", "nine", "3", "seven", "eight", "two", "ace", ""]

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.evaluators: dict[str, object] = {}
        self.classes: dict[str, set[str]] = {}  # flag key -> classes its definition triggers

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # Contexts ------------------------------------------------------------------------------

    def context(self) -> dict:
        r = self.rng
        ctx: dict = {}
        roll = r.random()
        if roll < 0.75:
            ctx["targetingKey"] = "user-%d" % r.randrange(10_000)
        elif roll < 0.85:
            ctx["targetingKey"] = self.pick(["", "jon@company.com", "jane@company.com", "ejOoVL", "ceQdGm"])
        for key, make, p in [
            ("email", lambda: self.pick(self.EMAILS), 0.8),
            ("tier", lambda: self.pick(self.TIERS), 0.7),
            ("country", lambda: self.pick(self.COUNTRIES), 0.6),
            ("age", lambda: r.randrange(0, 100), 0.7),
            ("score", lambda: round(r.uniform(-10, 10), 2), 0.5),
            ("beta", lambda: r.random() < 0.5, 0.5),
            ("version", lambda: self.version_value(), 0.8),
            ("user", lambda: {"name": self.pick(self.NAMES)}, 0.5),
            ("color", lambda: self.pick(["red", "blue", "green", "v0", "v1", ""]), 0.4),
        ]:
            if r.random() < p:
                ctx[key] = make()
        return ctx

    def version_value(self):
        roll = self.rng.random()
        if roll < 0.1:
            return self.pick([1, 2, 1.2, 1.5, 3, 0, 1_000_000, 2_000_000])
        return self.pick(self.VERSIONS)

    # Rules ---------------------------------------------------------------------------------

    def var(self, name: str):
        form = self.rng.random()
        if form < 0.7:
            return {"var": name}
        if form < 0.85:
            return {"var": [name]}
        return {"var": [name, self.pick(["fallback", "", 0])]}

    def condition(self, depth: int, variants: list[str]):
        r = self.rng
        kind = r.randrange(18 if depth > 0 else 15)
        if kind == 0:
            return {"==": [self.var("email"), self.pick(self.EMAILS)]}
        if kind == 1:
            return {self.pick(["!=", "===", "!=="]): [self.var("tier"), self.pick(self.TIERS)]}
        if kind == 2:
            op = self.pick(["<", "<=", ">", ">="])
            if r.random() < 0.2:
                return {op: [r.randrange(0, 50), self.var("age"), r.randrange(50, 100)]}
            return {op: [self.var(self.pick(["age", "score"])), r.randrange(-5, 80)]}
        if kind == 3:
            return {"in": [self.var("country"), self.rng.sample(self.COUNTRIES, r.randrange(0, 4))]}
        if kind == 4:
            return {"in": [self.pick(["@", "example", "corp", "x"]), self.var("email")]}
        if kind == 5:
            return self.string_op()
        if kind in (6, 7):
            return self.sem_ver()
        if kind == 8:
            return {self.pick(["!", "!!"]): [self.var(self.pick(["beta", "tier", "email", "missing"]))]}
        if kind == 9:
            return self.var("beta")
        if kind == 10:
            return {"==": [{"var": "$flagd.flagKey"}, self.pick(["f0", "x"])]}
        if kind == 11:
            return {"ref": True}  # replaced by a $ref below
        if kind == 12:
            return {"fractional": self.fractional_args([False, True], allow_bad=True)}
        if kind == 13:
            # Numbers against numbers and numeric strings (loose and strict equality).
            return {self.pick(["==", "!=", "===", "!=="]): [self.var("age"), self.pick([r.randrange(0, 100), str(r.randrange(0, 100)), 42, "42"])]}
        if kind == 14:
            # Strings ordered as strings.
            return {self.pick(["<", "<=", ">", ">="]): [self.var(self.pick(["tier", "country"])), self.pick(["m", "NL", "gold", ""])]}
        # Nested logic.
        op = self.pick(["and", "or"])
        return {op: [self.condition(depth - 1, variants) for _ in range(r.randrange(1, 4))]}

    def string_op(self):
        r = self.rng
        op = self.pick(["starts_with", "ends_with"])
        roll = r.random()
        if roll < 0.7:
            affix = self.pick(["staff@", "user", "@example.org", ".com", "", "x@", "dev"])
            return {op: [self.var("email"), affix]}
        if roll < 0.8:
            return {op: [self.var("age"), "1"]}  # a non-string: null
        if roll < 0.9:
            return {op: [self.var("email")]}  # wrong count: null
        return {op: [self.var("email"), "a", "b"]}

    def sem_ver(self):
        r = self.rng
        roll = r.random()
        op = self.pick(["=", "!=", "<", "<=", ">", ">=", "^", "~"])
        target = self.pick(["2.0.0", "1.0.0", "v1.2.3", "2.0.0-beta.3", "1.2", "3", "1.0.0+build", "2.0.0-rc.1"])
        if roll < 0.8:
            return {"sem_ver": [self.var("version"), op, target]}
        if roll < 0.87:
            return {"sem_ver": [self.var("version"), self.pick(["===", "=>", "", "eq"]), target]}
        if roll < 0.94:
            return {"sem_ver": [self.var("version"), op]}
        return {"sem_ver": [target, op, self.var("version"), "extra"]}

    def fractional_args(self, variants: list, allow_bad: bool) -> list:
        r = self.rng
        args: list = []
        roll = r.random()
        if roll < 0.3:
            args.append({"cat": [{"var": "$flagd.flagKey"}, self.var("email")]})
        elif roll < 0.45:
            args.append(self.var("email"))
        elif roll < 0.5:
            args.append(self.pick(["static-seed", ""]))
        elif roll < 0.55 and allow_bad:
            args.append({"var": "missing_key"})  # null: Go skips it
        count = r.randrange(0 if allow_bad and r.random() < 0.05 else 1, 5)
        for _ in range(count):
            variant = self.pick(variants) if variants else "v0"
            bucket: list = [variant]
            w = r.random()
            if w < 0.8:
                bucket.append(r.randrange(0, 101))
            elif w < 0.85:
                bucket.append(-r.randrange(1, 50))
            elif allow_bad and w < 0.88:
                bucket.append(self.pick([0.5, 50.0, None, "50"]))
            elif allow_bad and w < 0.9:
                bucket.append(r.randrange(0, 10))
                bucket.append("extra")
            args.append(bucket)
        if allow_bad and r.random() < 0.02:
            args.append([[1, 2], 10])
        return args

    def variant_expression(self, depth: int, variants: list[str]):
        r = self.rng
        roll = r.random()
        if roll < 0.6 or depth <= 0:
            if r.random() < 0.08:
                return None
            if r.random() < 0.05:
                return "not-a-variant"
            return self.pick(variants)
        if roll < 0.75:
            return self.rule(depth - 1, variants)
        if roll < 0.85:
            return {"fractional": self.fractional_args(variants, allow_bad=True)}
        if roll < 0.92:
            return {"var": "color"}
        return {"cat": ["v", self.pick(["0", "1", {"var": "age"}])]}

    def rule(self, depth: int, variants: list[str]):
        r = self.rng
        roll = r.random()
        if roll < 0.55:
            args = []
            for _ in range(r.randrange(1, 3)):
                args.append(self.condition(depth, variants))
                args.append(self.variant_expression(depth, variants))
            if r.random() < 0.8:
                args.append(self.variant_expression(depth, variants))
            return {"if": args}
        if roll < 0.75:
            return {"fractional": self.fractional_args(variants, allow_bad=True)}
        if roll < 0.85:
            return self.condition(depth, variants)  # a bare condition: true/false/null names a variant
        return self.variant_expression(depth, variants)

    # Flags ---------------------------------------------------------------------------------

    def variants(self, kind: str) -> dict:
        r = self.rng
        n = r.randrange(2, 5)
        if kind == "boolean":
            if r.random() < 0.5:
                return {"true": True, "false": False}
            return {"on": True, "off": False}
        if kind == "string":
            return {"v%d" % i: self.pick(["red", "blue", "green", "", "ünïcode", "v%d" % i]) for i in range(n)}
        if kind == "integer":
            return {"v%d" % i: r.randrange(-1000, 1000) for i in range(n)}
        if kind == "float":
            return {"v%d" % i: r.randrange(-1000, 1000) + self.pick([0.5, 0.25, 0.125]) for i in range(n)}
        values = [{"title": "Pics", "perPage": 100}, {}, {"coupon": None}, {"tiers": [1, None, 3], "nested": {"a": None}},
                  {"list": [], "flag": True, "ratio": 0.5}, {"s": "text", "n": None}]
        return {"v%d" % i: self.pick(values) for i in range(n)}

    def flag(self, key: str) -> dict:
        r = self.rng
        kind = self.pick(["boolean", "string", "integer", "float", "object"])
        variants = self.variants(kind)
        names = list(variants)
        flag: dict = {"state": "DISABLED" if r.random() < 0.05 else "ENABLED", "variants": variants}
        roll = r.random()
        if roll < 0.8:
            flag["defaultVariant"] = self.pick(names)
        elif roll < 0.88:
            flag["defaultVariant"] = None
        elif roll < 0.95:
            flag["defaultVariant"] = ""
        t = r.random()
        if t < 0.1:
            pass
        elif t < 0.15:
            flag["targeting"] = {}
        else:
            rule = self.rule(2, names)
            if not isinstance(rule, dict):
                rule = {"if": [True, rule]}
            flag["targeting"] = self.resolve_refs(rule)
        if r.random() < 0.2:
            flag["metadata"] = {"owner": "team-%d" % r.randrange(5), "version": r.randrange(10)}
        flag["_kind"] = kind
        return flag

    def resolve_refs(self, rule):
        """Turns the {"ref": True} placeholders into $ref to a shared evaluator."""
        if isinstance(rule, list):
            return [self.resolve_refs(item) for item in rule]
        if isinstance(rule, dict):
            if rule == {"ref": True}:
                name = "rule%d" % self.rng.randrange(6)
                if name not in self.evaluators:
                    self.evaluators[name] = self.condition(0, [])
                    self.evaluators[name] = self.resolve_refs(self.evaluators[name])
                    if self.evaluators[name] == {"ref": True}:
                        self.evaluators[name] = {"==": [{"var": "tier"}, "premium"]}
                return {"$ref": name}
            return {key: self.resolve_refs(value) for key, value in rule.items()}
        return rule


def generate(seed: int, cases: int):
    """A flag definition document and `cases` (flag key, context) pairs."""
    rng = random.Random(seed)
    gen = Gen(rng)
    flag_count = max(1, cases // 5)
    flags = {}
    kinds = {}
    for index in range(flag_count):
        key = "f%d" % index
        flag = gen.flag(key)
        kinds[key] = flag.pop("_kind")
        flags[key] = flag
    document = {"flags": flags}
    if gen.evaluators:
        document["$evaluators"] = gen.evaluators
    work = []
    for index in range(cases):
        key = "f%d" % (index % flag_count)
        work.append((key, gen.context()))
    return document, kinds, work
