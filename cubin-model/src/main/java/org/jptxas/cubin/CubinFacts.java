package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.NvInfo;

/**
 * Reads back the {@link FunctionFacts} of each function of a cubin: code, register count, stack sizes, shared bytes,
 * parameters and the other .nv.info records. With {@link CubinBuilder} this closes the loop "ptxas cubin → facts →
 * rebuilt cubin" that tests the writer, and it feeds {@link ResourceReport}.
 */
public final class CubinFacts {
    private CubinFacts() {}

    static final int REGCOUNT = 0x2f;
    static final int FRAME_SIZE = 0x11;
    static final int MIN_STACK_SIZE = 0x12;
    static final int MAX_STACK_SIZE = 0x23;
    /** Records {@link org.jptxas.cubin.info.FunctionInfo} derives from the typed facts. */
    static final Set<Integer> DERIVED = Set.of(0x36, 0x37, 0x35, 0x0a, 0x19, 0x17, 0x50, 0x1b, 0x4c, 0x5f, 0x4a, 0x1c, 0x1e);

    public static List<FunctionFacts> functions(Cubin cubin) {
        List<Symbol> symbols = cubin.symbols();
        Map<Integer, Integer> symbolOfText = new HashMap<>();
        for (int i = 0; i < symbols.size(); i++) {
            Symbol s = symbols.get(i);
            if (s.symbolType() == Symbol.STT_FUNC && s.shndx() > 0 && s.value() == 0) {
                symbolOfText.putIfAbsent(s.shndx(), i);
            }
        }
        Map<Integer, int[]> global = new HashMap<>(); // symbol -> {regs, frame, min, max}
        cubin.section(".nv.info").ifPresent(s -> {
            for (Attribute a : NvInfo.decode(s.data(), s.name())) {
                if (a instanceof Attribute.SymbolValue sv) {
                    int[] v = global.computeIfAbsent(sv.symbol(), k -> new int[4]);
                    switch (sv.code()) {
                        case REGCOUNT -> v[0] = sv.value();
                        case FRAME_SIZE -> v[1] = sv.value();
                        case MIN_STACK_SIZE -> v[2] = sv.value();
                        default -> { }
                    }
                } else if (a instanceof Attribute.Words w && w.code() == MAX_STACK_SIZE && w.words().length == 2) {
                    global.computeIfAbsent(w.words()[0], k -> new int[4])[3] = w.words()[1];
                }
            }
        });
        Map<Integer, List<String>> callees = new HashMap<>();
        cubin.section(".nv.callgraph").ifPresent(s -> {
            byte[] b = s.data();
            for (int at = 0; at + 8 <= b.length; at += 8) {
                int caller = word(b, at);
                int callee = word(b, at + 4);
                if (callee > 0 && callee < symbols.size()) {
                    callees.computeIfAbsent(caller, k -> new ArrayList<>()).add(symbols.get(callee).name());
                }
            }
        });
        List<FrameEntry> frames = cubin.section(".debug_frame").map(s -> frameEntries(s.data())).orElse(List.of());
        int frameCursor = 0;
        List<FunctionFacts> out = new ArrayList<>();
        for (int i = 0; i < cubin.sections().size(); i++) {
            Section text = cubin.section(i);
            if (!text.isText()) {
                continue;
            }
            String fn = text.functionName();
            int sym = symbolOfText.getOrDefault(i, -1);
            boolean entry = sym >= 0 && symbols.get(sym).isEntry();
            int[] g = global.getOrDefault(sym, new int[4]);
            List<FunctionFacts.Param> params = new ArrayList<>();
            List<Attribute> extra = new ArrayList<>();
            int paramBytes = 0;
            int barriers = 0;
            int maxReg = 255;
            int[] exits = new int[0];
            OptionalInt crs = OptionalInt.empty();
            Section info = cubin.section(".nv.info." + fn).orElse(null);
            if (info != null) {
                for (Attribute a : NvInfo.decode(info.data(), info.name())) {
                    if (a instanceof Attribute.KParamInfo k) {
                        params.add(0, new FunctionFacts.Param(k.ordinal(), k.offset(), k.size(), k.logAlignment(), k.space()));
                    } else if (a.code() == 0x19 && a instanceof Attribute.Inline in) {
                        paramBytes = in.value();
                    } else if (a.code() == 0x4c && a instanceof Attribute.Inline in) {
                        barriers = in.value();
                    } else if (a.code() == 0x1b && a instanceof Attribute.Inline in) {
                        maxReg = in.value();
                    } else if (a.code() == 0x1c && a instanceof Attribute.Words w) {
                        exits = w.words();
                    } else if (a.code() == 0x1e && a instanceof Attribute.Words w && w.words().length == 1) {
                        crs = OptionalInt.of(w.words()[0]);
                    } else if (!DERIVED.contains(a.code())) {
                        extra.add(a);
                    }
                }
            }
            params.sort(java.util.Comparator.comparingInt(FunctionFacts.Param::ordinal));
            long shared = cubin.section(".nv.shared." + fn).map(Section::size).orElse(0L);
            List<FunctionFacts.InnerFunction> inner = new ArrayList<>();
            frameCursor++; // the function's own FDE
            for (int k = 0; k < symbols.size(); k++) {
                Symbol s = symbols.get(k);
                if (k != sym && s.shndx() == i && s.symbolType() == Symbol.STT_FUNC) {
                    // Its FDE follows the host's, after a call-ABI CIE naming the return register.
                    FrameEntry fe = frameCursor < frames.size() ? frames.get(frameCursor++) : null;
                    boolean matches = fe != null && fe.range() == s.size() && !fe.returnRegisters().isEmpty();
                    inner.add(new FunctionFacts.InnerFunction(s.name(), s.value(), s.size(),
                            global.getOrDefault(k, new int[4])[1], FunctionFacts.Binding.of(s.info() >> 4),
                            matches ? fe.returnRegisters() : List.of(FunctionFacts.InnerFunction.ABI_RETURN_REGISTER),
                            matches ? fe.program() : new byte[0]));
                }
            }
            out.add(new FunctionFacts(fn, entry, text.data(), g[0], g[1], g[2], g[3], shared, params, paramBytes,
                    barriers, exits, crs, maxReg, extra, callees.getOrDefault(sym, List.of()), inner));
        }
        return out;
    }

    /** One FDE of .debug_frame: address range, program (padding included), return registers its CIE names. */
    private record FrameEntry(long range, byte[] program, List<Integer> returnRegisters) {}

    /** The FDEs of a ptxas .debug_frame (64-bit DWARF: each entry is 0xffffffff, a 64-bit length, the body). */
    private static List<FrameEntry> frameEntries(byte[] b) {
        List<FrameEntry> out = new ArrayList<>();
        List<Integer> returnRegisters = List.of();
        int at = 0;
        while (at + 12 <= b.length) {
            long length = qword(b, at + 4);
            int body = at + 12;
            if (length < 24 || body + length > b.length) {
                break;
            }
            int end = (int) (body + length);
            if (qword(b, body) == -1L) {
                returnRegisters = returnRegisters(b, body + 8, end);
            } else {
                out.add(new FrameEntry(qword(b, body + 16), java.util.Arrays.copyOfRange(b, body + 24, end), returnRegisters));
            }
            at = end;
        }
        return out;
    }

    /**
     * The return registers a call-ABI CIE names: the general registers it keeps ({@code DW_CFA_same_value}) other
     * than RZ and the stack pointer, ending with the one its return column's val_expression adds; empty for the
     * plain CIE.
     */
    private static List<Integer> returnRegisters(byte[] b, int at, int end) {
        at += 4; // version, augmentation "", code and data alignment
        long[] v = new long[2];
        at = uleb(b, at, v); // return-address column
        List<Integer> kept = new ArrayList<>();
        long own = -1;
        while (at < end) {
            int op = b[at++] & 0xff;
            switch (op) {
                case 0x0c -> at = uleb(b, uleb(b, at, v), v);
                case 0x08 -> {
                    at = uleb(b, at, v);
                    long r = v[0] - DebugFrame.register(0);
                    if (r >= 0 && r < 255 && r != 1) {
                        kept.add((int) r);
                    }
                }
                case 0x16 -> {
                    // val_expression(column, length, DW_OP_addr a8, DW_OP_bregx register, 0, DW_OP_plus)
                    at = uleb(b, uleb(b, at, v), v);
                    if (at + 10 < end && (b[at] & 0xff) == 0x03 && (b[at + 9] & 0xff) == 0x92) {
                        uleb(b, at + 10, v);
                        own = v[0] - DebugFrame.register(0);
                    }
                    at = end;
                }
                default -> at = end;
            }
        }
        if (own < 0 || kept.isEmpty() || kept.get(kept.size() - 1) != own) {
            return List.of();
        }
        return kept;
    }

    private static int uleb(byte[] b, int at, long[] value) {
        return Leb128.readUnsignedTolerant(b, at, value);
    }

    private static long qword(byte[] b, int at) {
        return (word(b, at) & 0xffffffffL) | (long) word(b, at + 4) << 32;
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }
}
