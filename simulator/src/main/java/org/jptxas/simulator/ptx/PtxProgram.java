package org.jptxas.simulator.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.parse.ConstantEvaluator;
import org.jptxas.frontend.ptx.parse.ParseResult;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.jptxas.frontend.ptx.parse.SymbolAddress;
import org.jptxas.ori.diag.Diagnostic;

/**
 * A PTX module prepared for interpretation: module variables laid out in their spaces (with initial contents),
 * every defined function compiled, calls linked. Immutable after loading; launches share it.
 */
public final class PtxProgram {
    /** A module-scope variable in global, constant or shared memory. */
    record ModuleVar(String name, StateSpace space, int size, int align, byte[] init) {}

    /**
     * An address in a variable's initializer ({@code generic(x)+N}, {@code x+N}): {@code width} bytes at
     * {@code offset} of global variable {@code holder} (an index into {@link #globals}), or of constant memory when
     * {@code holder} is -1, receive the address of global variable {@code symbol} plus {@code addend} at launch.
     */
    record AddressInit(int holder, long offset, int width, String symbol, long addend) {}

    /** What a name means inside a function: a register, or a variable in a space at an offset (global: an index). */
    record Symbol(Kind kind, int index, long offset, int size, PtxType type) {
        enum Kind { REGISTER, GLOBAL_VAR, SHARED_VAR, CONST_VAR, LOCAL_VAR, PARAM_VAR, FUNCTION }
    }

    final String fileName;
    final List<ModuleVar> globals = new ArrayList<>();
    final List<AddressInit> addressInits = new ArrayList<>();
    byte[] constImage = new byte[0];
    int staticSharedBytes;
    /** Module-scope {@code .local} variables: per-thread statics at the bottom of every thread's local memory. */
    int staticLocalBytes;
    /** Offset of extern (dynamic) shared variables: after the static ones. */
    final Map<String, Symbol> moduleSymbols = new HashMap<>();
    final Map<String, CompiledFunction> functions = new LinkedHashMap<>();
    private final List<String> dynamicShared = new ArrayList<>();

    private PtxProgram(String fileName) {
        this.fileName = fileName;
    }

    /** Parses and compiles {@code text}; errors name the file and line. */
    public static PtxProgram load(String fileName, String text) throws ProgramException {
        ParseResult r = PtxParser.parse(fileName, text);
        if (r.hasErrors()) {
            StringBuilder sb = new StringBuilder();
            for (Diagnostic d : r.diagnostics()) {
                if (d.isError()) {
                    sb.append(d).append('\n');
                }
            }
            throw new ProgramException(sb.toString().strip());
        }
        PtxProgram p = new PtxProgram(fileName);
        p.build(r.module());
        return p;
    }

    /** The kernels ({@code .entry} definitions) in source order. */
    public List<String> entries() {
        return functions.values().stream().filter(f -> f.entry).map(f -> f.name).toList();
    }

    CompiledFunction function(String name) {
        return functions.get(name);
    }

    private void build(PtxModule module) throws ProgramException {
        for (VariableDecl v : module.variables()) {
            declareModuleVariable(v);
        }
        List<FunctionDecl> defs = module.functions().stream().filter(FunctionDecl::isDefinition).toList();
        int id = 0;
        for (FunctionDecl f : defs) {
            CompiledFunction cf = new CompiledFunction(f.name(), f.isEntry(), id++);
            for (org.jptxas.frontend.ptx.ast.TuningDirective t : f.tuning()) {
                if (f.isEntry() && t.kind() == org.jptxas.frontend.ptx.ast.TuningDirective.Kind.REQNCTAPERCLUSTER
                        && !t.values().isEmpty()) {
                    List<Long> v = t.values();
                    cf.clusterShape = new org.jptxas.simulator.launch.Dim3(v.get(0).intValue(),
                            v.size() > 1 ? v.get(1).intValue() : 1, v.size() > 2 ? v.get(2).intValue() : 1);
                }
            }
            functions.put(f.name(), cf);
            moduleSymbols.put(f.name(), new Symbol(Symbol.Kind.FUNCTION, 0, 0, 0, null));
        }
        for (FunctionDecl f : module.functions()) {
            if (!f.isDefinition() && !functions.containsKey(f.name())) {
                moduleSymbols.putIfAbsent(f.name(), new Symbol(Symbol.Kind.FUNCTION, 0, 0, 0, null));
            }
        }
        for (FunctionDecl f : defs) {
            new FunctionCompiler(this, f, functions.get(f.name())).compile();
        }
        // Dynamic shared memory starts after all static shared variables (function-scope ones included).
        int dynBase = (staticSharedBytes + 15) & ~15;
        for (String name : dynamicShared) {
            Symbol s = moduleSymbols.get(name);
            moduleSymbols.put(name, new Symbol(Symbol.Kind.SHARED_VAR, 0, dynBase, 0, s.type()));
        }
        for (CompiledFunction f : functions.values()) {
            for (Insn in : f.code) {
                if (in.call != null) {
                    // An external callee (vprintf, malloc, __assertfail) stays null: the call stops the run by name.
                    in.call.callee = in.call.calleeName == null ? null : functions.get(in.call.calleeName);
                }
            }
        }
    }

    /** Shared variables declared {@code extern} (sized at launch) resolve to the dynamic base, patched at the end. */
    boolean isDynamicShared(String name) {
        return dynamicShared.contains(name);
    }

    int dynamicSharedBase() {
        return (staticSharedBytes + 15) & ~15;
    }

    void declareModuleVariable(VariableDecl v) throws ProgramException {
        for (Declarator d : v.declarators()) {
            moduleSymbols.put(d.name(), allocateStatic(v, d));
        }
    }

    /** Allocates a global/const/shared variable (module or function scope, both static). */
    Symbol allocateStatic(VariableDecl v, Declarator d) throws ProgramException {
        int elem = elementSize(v);
        long count = 1;
        boolean unsized = false;
        for (long dim : d.dimensions()) {
            if (dim < 0) {
                unsized = true;
            } else {
                count *= dim;
            }
        }
        int size = (int) (elem * count);
        int align = (int) Math.max(v.align(), Math.max(1, elem));
        List<AddressInit> addresses = new ArrayList<>();
        byte[] init = d.initializer() == null ? new byte[0] : initialBytes(v, d, size, addresses);
        if (unsized && init.length > 0) {
            size = init.length;
            unsized = false;
        }
        switch (v.space()) {
            case GLOBAL -> {
                globals.add(new ModuleVar(d.name(), StateSpace.GLOBAL, Math.max(size, 1), align, init));
                int holder = globals.size() - 1;
                addresses.forEach(a -> addressInits.add(new AddressInit(holder, a.offset(), a.width(), a.symbol(),
                        a.addend())));
                return new Symbol(Symbol.Kind.GLOBAL_VAR, globals.size() - 1, 0, size, v.type());
            }
            case CONST -> {
                int off = (constImage.length + align - 1) & -align;
                byte[] n = new byte[off + size];
                System.arraycopy(constImage, 0, n, 0, constImage.length);
                System.arraycopy(init, 0, n, off, Math.min(init.length, size));
                constImage = n;
                addresses.forEach(a -> addressInits.add(new AddressInit(-1, off + a.offset(), a.width(), a.symbol(),
                        a.addend())));
                return new Symbol(Symbol.Kind.CONST_VAR, 0, off, size, v.type());
            }
            case SHARED -> {
                if (unsized) {
                    dynamicShared.add(d.name());
                    return new Symbol(Symbol.Kind.SHARED_VAR, 0, -1, 0, v.type());
                }
                int off = (staticSharedBytes + align - 1) & -align;
                staticSharedBytes = off + size;
                return new Symbol(Symbol.Kind.SHARED_VAR, 0, off, size, v.type());
            }
            case LOCAL -> {
                int off = (staticLocalBytes + align - 1) & -align;
                staticLocalBytes = off + size;
                return new Symbol(Symbol.Kind.LOCAL_VAR, 1, off, size, v.type());
            }
            default -> throw new ProgramException(fileName + ", line " + v.pos().line() + ": module variables in "
                    + v.space().directive() + " are not supported by the interpreter");
        }
    }

    static int elementSize(VariableDecl v) {
        int s = v.type().sizeBytes();
        return v.vectorLength() > 0 ? s * v.vectorLength() : s;
    }

    /** The constant bytes of an initializer; the addresses in it go to {@code addresses} (holder unset). */
    private byte[] initialBytes(VariableDecl v, Declarator d, int size, List<AddressInit> addresses)
            throws ProgramException {
        List<Expr> values = new ArrayList<>();
        flatten(d.initializer(), values);
        int scalar = v.type().sizeBytes();
        byte[] out = new byte[Math.max(size, values.size() * scalar)];
        for (int i = 0; i < values.size(); i++) {
            AddressInit address = address(values.get(i), (long) i * scalar, scalar);
            if (address != null) {
                addresses.add(address);
                continue;
            }
            long bits = constantBits(values.get(i), v.type(), v.pos().line());
            for (int b = 0; b < scalar; b++) {
                out[i * scalar + b] = (byte) (bits >>> (8 * b));
            }
        }
        return out;
    }

    /** {@code e} as a variable's address plus a constant ({@code x}, {@code generic(x)}, {@code x+N}), or null. */
    private static AddressInit address(Expr e, long offset, int width) {
        try {
            return SymbolAddress.of(e).map(a -> new AddressInit(-1, offset, width, a.symbol(), a.addend()))
                    .orElse(null);
        } catch (ConstantEvaluator.NotConstantException ex) {
            return null; // a symbol plus a non-constant: not an address the interpreter places
        }
    }

    private void flatten(Initializer init, List<Expr> out) throws ProgramException {
        if (init instanceof Initializer.Value val) {
            out.add(val.value());
        } else if (init instanceof Initializer.Aggregate agg) {
            for (Initializer e : agg.elements()) {
                flatten(e, out);
            }
        } else {
            throw new ProgramException(fileName + ": unsupported initializer " + init);
        }
    }

    long constantBits(Expr e, PtxType type, int line) throws ProgramException {
        if (e instanceof Expr.FloatLit f) {
            return switch (type) {
                case F32 -> Float.floatToRawIntBits((float) f.value()) & 0xffffffffL;
                case F64 -> Double.doubleToRawLongBits(f.value());
                default -> f.form() == Expr.FloatForm.HEX_F32 ? f.bits() & 0xffffffffL : f.bits();
            };
        }
        Long v = ConstExpr.evaluate(e);
        if (v == null) {
            throw new ProgramException(fileName + ", line " + line + ": initializer '" + e
                    + "' is not supported by the interpreter (only constants)");
        }
        return switch (type) {
            case F32 -> Float.floatToRawIntBits((float) (long) v) & 0xffffffffL;
            case F64 -> Double.doubleToRawLongBits((double) (long) v);
            default -> v;
        };
    }

    /** The function whose address ({@link ControlFlowCompiler#functionAddress}) is {@code address}, or null. */
    CompiledFunction functionAt(long address) {
        for (CompiledFunction f : functions.values()) {
            if (!f.entry && ControlFlowCompiler.functionAddress(f.name) == address) {
                return f;
            }
        }
        return null;
    }
}
