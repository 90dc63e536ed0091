package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.tables.isel.EmitAction;
import org.jptxas.tables.isel.MatcherData;
import org.jptxas.tables.isel.ModTest;
import org.jptxas.tables.isel.OperandKind;
import org.jptxas.tables.isel.OperandTest;

/**
 * One compiled matcher of a set: {@link #matches} is the pattern, {@link #apply} the emit template. Immutable.
 * {@code source} names the table the matcher came from (for messages).
 */
public final class Matcher {
    private final MatcherData data;
    private final String source;
    private final Set<String> targets;
    private final Set<String> ops;
    private final boolean exactMods;

    Matcher(MatcherData data, String source) {
        this.data = Objects.requireNonNull(data, "data");
        this.source = Objects.requireNonNull(source, "source");
        this.targets = Set.copyOf(data.targets());
        this.ops = Set.copyOf(data.ops());
        this.exactMods = data.mods().stream().anyMatch(ModTest::exact);
    }

    public String name() {
        return data.name();
    }

    public int priority() {
        return data.priority();
    }

    public String source() {
        return source;
    }

    public MatcherData data() {
        return data;
    }

    /** Whether the emit template prints a memory descriptor (which the legalizer must provide). */
    public boolean needsDescriptor() {
        return data.emit().stream().anyMatch(a -> a.kind() == EmitAction.Kind.DESCRIPTOR);
    }

    /** Whether this matcher takes {@code ins} on {@code target}. */
    public boolean matches(Instr ins, String target) {
        if (!targets.isEmpty() && !targets.contains(target)) {
            return false;
        }
        if (!ops.isEmpty() && !ops.contains(ins.op().name())) {
            return false;
        }
        for (ModTest t : data.mods()) {
            if (t.exact()) {
                continue;
            }
            if (ins.hasMod(t.mod()) != t.required()) {
                return false;
            }
        }
        if (exactMods) {
            for (String m : ins.mods()) {
                if (data.mods().stream().noneMatch(t -> t.required() && t.mod().equals(m))) {
                    return false;
                }
            }
        }
        if (!data.operands().isEmpty()) {
            int n = ins.dsts().size() + ins.srcs().size();
            for (OperandTest t : data.operands()) {
                if (t.index() >= n) {
                    if (!t.absent()) {
                        return false;
                    }
                    continue;
                }
                if (t.absent()) {
                    return false;
                }
                Operand o = t.index() < ins.dsts().size() ? ins.dsts().get(t.index())
                        : ins.srcs().get(t.index() - ins.dsts().size()).value();
                if (!t.kinds().contains(kindOf(o)) && !(o instanceof Reg r && r.isZero()
                        && t.kinds().contains(zeroKindOf(r)))) {
                    return false;
                }
                if (t.ranged() && o instanceof Imm imm) {
                    long v = signedValue(imm);
                    if (v < t.min() || v > t.max()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** An immediate as a signed number: 32-bit values sign-extended, wider ones as they are. */
    static long signedValue(Imm imm) {
        long b = imm.bits();
        return (b >>> 32) == 0 ? (long) (int) b : b;
    }

    /** RZ, URZ, PT or UPT as a pattern names it. */
    static OperandKind zeroKindOf(Reg r) {
        return switch (r.file()) {
            case R -> OperandKind.RZ;
            case UR -> OperandKind.URZ;
            case P -> OperandKind.PT;
            case UP -> OperandKind.UPT;
        };
    }

    static OperandKind kindOf(Operand o) {
        if (o instanceof Reg r) {
            return switch (r.file()) {
                case R -> OperandKind.R;
                case UR -> OperandKind.UR;
                case P -> OperandKind.P;
                case UP -> OperandKind.UP;
            };
        }
        if (o instanceof Imm) {
            return OperandKind.IMM;
        }
        if (o instanceof CBank) {
            return OperandKind.CBANK;
        }
        if (o instanceof Addr) {
            return OperandKind.ADDR;
        }
        if (o instanceof Sym) {
            return OperandKind.SYM;
        }
        if (o instanceof BlockLabel) {
            return OperandKind.LABEL;
        }
        if (o instanceof SpecialReg || o instanceof org.jptxas.ori.ir.BarrierReg) {
            return OperandKind.SPECIAL;
        }
        throw new IllegalArgumentException("operand " + o);
    }

    /**
     * The SASS instruction the emit template makes of {@code ins}.
     *
     * @throws SelectionException when the template names an operand the instruction lacks
     */
    public SelectedInstr apply(Instr ins) {
        String opcode = ins.op().name().replace('_', '.');
        boolean named = false; // an emit "=NAME" gives the SASS mnemonic as printed (UCGABAR_ARV keeps its underscore)
        List<String> mods = new ArrayList<>(ins.mods());
        List<Src> operands = SelectedInstr.operandsOf(ins);
        int descriptor = -1;
        for (EmitAction a : data.emit()) {
            switch (a.kind()) {
                case OPCODE -> {
                    opcode = a.arg();
                    named = true;
                }
                case APPEND_MOD -> {
                    if (!mods.contains(a.arg())) {
                        mods.add(a.arg());
                    }
                }
                case PREPEND_MOD -> {
                    if (!mods.contains(a.arg())) {
                        mods.add(0, a.arg());
                    }
                }
                case DROP_MOD -> mods.remove(a.arg());
                case RENAME_MOD -> {
                    String[] parts = a.arg().split(">");
                    int at = mods.indexOf(parts[0]);
                    if (at >= 0) {
                        mods.remove(at);
                        mods.addAll(at, List.of(parts[1].split("\\.")));
                    }
                }
                case OPERANDS -> {
                    List<Src> out = new ArrayList<>(a.operands().size());
                    for (String ref : a.operands()) {
                        out.add(operandRef(ref, operands, ins));
                    }
                    operands = out;
                }
                case IMPLICIT -> operands = WarpgroupOperands.printed(ins);
                case DESCRIPTOR -> {
                    // the global address (LDGSTS also has a shared one): the first 64-bit address, else the first
                    int addr = -1;
                    for (int i = 0; i < operands.size() && addr < 0; i++) {
                        if (operands.get(i).value() instanceof Addr x && x.wide()) {
                            addr = i;
                        }
                    }
                    for (int i = 0; i < operands.size() && addr < 0; i++) {
                        if (operands.get(i).value() instanceof Addr) {
                            addr = i;
                        }
                    }
                    int desc = -1;
                    for (int i = operands.size() - 1; i > addr && desc < 0; i--) {
                        if (operands.get(i).value() instanceof Reg r && r.file() == RegFile.UR && r.comps() == 2) {
                            desc = i;
                        }
                    }
                    if (addr < 0 || desc < 0) {
                        throw new SelectionException(ins.line(), "matcher " + name() + " needs an address and a memory"
                                + " descriptor (a UR pair after it, added by the legalizer) in '" + ins + "'");
                    }
                    Src d = operands.remove(desc);
                    operands.add(addr, d);
                    descriptor = addr;
                }
            }
        }
        return new SelectedInstr(ins.guard(), named ? SelectedInstr.sassMnemonicOf(opcode, mods) : SelectedInstr.mnemonicOf(opcode, mods),
                operands, descriptor, ins.line());
    }

    private Src operandRef(String ref, List<Src> operands, Instr ins) {
        return switch (ref) {
            case "PT" -> Src.of(Reg.PT);
            case "!PT" -> Src.of(Reg.PT).inverted();
            case "UPT" -> Src.of(Reg.UPT);
            case "!UPT" -> Src.of(Reg.UPT).inverted();
            case "RZ" -> Src.of(Reg.RZ);
            case "URZ" -> Src.of(Reg.URZ);
            default -> {
                int i = Integer.parseInt(ref);
                if (i >= operands.size()) {
                    throw new SelectionException(ins.line(), "matcher " + name() + " names operand " + i + " of '"
                            + ins + "', which has " + operands.size());
                }
                yield operands.get(i);
            }
        };
    }

    @Override
    public String toString() {
        return data.name() + "@" + data.priority() + " (" + source + ")";
    }
}
