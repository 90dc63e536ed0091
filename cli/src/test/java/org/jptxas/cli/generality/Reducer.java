package org.jptxas.cli.generality;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jptxas.cli.generality.RandomProgram.Code;
import org.jptxas.cli.generality.RandomProgram.Exchange;
import org.jptxas.cli.generality.RandomProgram.Func;
import org.jptxas.cli.generality.RandomProgram.If;
import org.jptxas.cli.generality.RandomProgram.Loop;
import org.jptxas.cli.generality.RandomProgram.Program;
import org.jptxas.cli.generality.RandomProgram.Stmt;

/**
 * A delta reducer over a random program's statements: while the failure persists ({@code fails}), it removes
 * chunks of statements (halves, quarters, ... single ones) from every statement list of the kernel and of its
 * functions, and replaces an if by one of its branches and a loop by its body. Every candidate is a well-defined
 * program (variables are all initialized before the first statement), so the reduced case fails for the original
 * reason or not at all. Bounded by {@code maxTests} runs of the predicate.
 */
final class Reducer {
    private final Predicate<Program> fails;
    private final int maxTests;
    private int tests;

    private Reducer(Predicate<Program> fails, int maxTests) {
        this.fails = fails;
        this.maxTests = maxTests;
    }

    /** The smallest program found that still fails. */
    static Program reduce(Program p, Predicate<Program> fails, int maxTests) {
        return new Reducer(fails, maxTests).run(p);
    }

    /** Statements in the program (compound statements count themselves and their contents). */
    static int size(Program p) {
        int n = size(p.body());
        for (Func f : p.funcs()) {
            n += size(f.body());
        }
        return n;
    }

    static int size(List<Stmt> l) {
        int n = 0;
        for (Stmt s : l) {
            n++;
            if (s instanceof If f) {
                n += size(f.then()) + size(f.otherwise());
            } else if (s instanceof Loop lp) {
                n += size(lp.body());
            }
        }
        return n;
    }

    private boolean test(Program p) {
        if (tests >= maxTests) {
            return false;
        }
        tests++;
        return fails.test(p);
    }

    private Program run(Program p) {
        boolean progress = true;
        while (progress && tests < maxTests) {
            progress = false;
            // the kernel's statement lists, outermost first, then each function's
            for (int path = 0; path < lists(p).size() && tests < maxTests; path++) {
                Program q = reduceList(p, path);
                if (q != p) {
                    p = q;
                    progress = true;
                }
            }
            Program q = simplify(p);
            if (q != p) {
                p = q;
                progress = true;
            }
        }
        return p;
    }

    /** Every statement list of the program, in a fixed order (index = path). */
    static List<List<Stmt>> lists(Program p) {
        List<List<Stmt>> out = new ArrayList<>();
        collect(p.body(), out);
        for (Func f : p.funcs()) {
            collect(f.body(), out);
        }
        return out;
    }

    private static void collect(List<Stmt> l, List<List<Stmt>> out) {
        out.add(l);
        for (Stmt s : l) {
            if (s instanceof If f) {
                collect(f.then(), out);
                collect(f.otherwise(), out);
            } else if (s instanceof Loop lp) {
                collect(lp.body(), out);
            }
        }
    }

    /** The program with list number {@code path} replaced. */
    static Program replace(Program p, int path, List<Stmt> with) {
        int[] counter = {0};
        Program q = p.withBody(replace(p.body(), path, with, counter));
        List<Func> fs = new ArrayList<>();
        for (Func f : p.funcs()) {
            fs.add(new Func(f.name(), f.head(), f.prologue(), replace(f.body(), path, with, counter), f.epilogue()));
        }
        return q.withFuncs(fs);
    }

    private static List<Stmt> replace(List<Stmt> l, int path, List<Stmt> with, int[] counter) {
        if (counter[0]++ == path) {
            return with;
        }
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : l) {
            if (s instanceof If f) {
                List<Stmt> t = replace(f.then(), path, with, counter);
                List<Stmt> o = replace(f.otherwise(), path, with, counter);
                out.add(new If(f.cond(), f.pred(), t, o));
            } else if (s instanceof Loop lp) {
                out.add(new Loop(lp.counter(), lp.boundCode(), lp.bound(), replace(lp.body(), path, with, counter)));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    /** ddmin-style removal of chunks from one list. */
    private Program reduceList(Program p, int path) {
        List<Stmt> l = lists(p).get(path);
        int chunk = Math.max(1, l.size() / 2);
        while (chunk >= 1 && !l.isEmpty() && tests < maxTests) {
            boolean removed = false;
            for (int from = 0; from < l.size() && tests < maxTests; ) {
                List<Stmt> cut = new ArrayList<>(l.subList(0, from));
                cut.addAll(l.subList(Math.min(l.size(), from + chunk), l.size()));
                Program q = replace(p, path, cut);
                if (test(q)) {
                    p = q;
                    l = cut;
                    removed = true;
                } else {
                    from += chunk;
                }
            }
            if (!removed) {
                chunk /= 2;
            }
        }
        return p;
    }

    /** One compound statement replaced by a branch or its body, if that still fails. */
    private Program simplify(Program p) {
        List<List<Stmt>> all = lists(p);
        for (int path = 0; path < all.size() && tests < maxTests; path++) {
            List<Stmt> l = all.get(path);
            for (int i = 0; i < l.size(); i++) {
                Stmt s = l.get(i);
                List<List<Stmt>> options = new ArrayList<>();
                if (s instanceof If f) {
                    options.add(f.then());
                    options.add(f.otherwise());
                } else if (s instanceof Loop lp) {
                    options.add(lp.body());
                } else if (s instanceof Exchange x && !x.before().isEmpty()) {
                    options.add(List.of(new Code(x.before())));
                }
                for (List<Stmt> o : options) {
                    List<Stmt> repl = new ArrayList<>(l.subList(0, i));
                    repl.addAll(o);
                    repl.addAll(l.subList(i + 1, l.size()));
                    Program q = replace(p, path, repl);
                    if (test(q)) {
                        return q;
                    }
                }
            }
        }
        return p;
    }
}
