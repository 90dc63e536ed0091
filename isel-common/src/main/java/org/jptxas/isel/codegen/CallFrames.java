package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassEncoder;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CallingConvention;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * The after-allocation half of the calls (the call sequences themselves are placed in Ori by the front end's
 * {@code CallSequences}): every call gets its return address moved into the callee's pair ({@code R20}/{@code R21}
 * under NVIDIA's convention, an internal subroutine's own pair otherwise) and loses the clobber list it carried for
 * the allocator; a callee (a subroutine, or a function of its own in relocatable output) under the convention saves
 * the callee-saved registers it writes ({@code R2}, {@code R16} and up but {@code R20}/{@code R21}) in its frame at
 * entry and reloads them before each {@code RET}, an internal one only its own return address where its calls
 * overwrite it; and any function whose spill slots (or saves) lie beyond its declared locals grows its frame by that
 * much ({@code IADD3 R1, R1, -extra}), so the slots sit below the caller's frame.
 */
public final class CallFrames {
    /** The return-address pair of the convention. */
    public static final int RETURN_ADDRESS = CallingConvention.RETURN_ADDRESS;
    /** {@link #placeholderMove}'s register for a move into any register (a return address's low word, whose pair
     * depends on the callee). */
    private static final int ANY_REGISTER = -1;
    /** Placeholder of the return-address move until the layout knows the address. */
    static final int RETURN_PLACEHOLDER = 0xfffff0;
    private static final Reg SP = Reg.phys(RegFile.R, 1, 1);

    private CallFrames() {}

    /** Whether {@code r} must be preserved by a callee. */
    public static boolean calleeSaved(int r) {
        return r == 2 || r >= 16 && r != RETURN_ADDRESS && r != RETURN_ADDRESS + 1 && r < RegFile.R.count();
    }

    /** Whether {@code f} is a subroutine placed in another function's section ({@code $owner$name}). */
    public static boolean isSubroutine(OriFunction f) {
        return ownerOf(f.name()) != null;
    }

    /** The owner of a subroutine name {@code $owner$callee}, else null. */
    public static String ownerOf(String name) {
        if (!name.startsWith("$")) {
            return null;
        }
        int end = name.indexOf('$', 1);
        return end < 0 ? null : name.substring(1, end);
    }

    /** Whether {@code name} is an IEEE slow path {@code $owner$__internal_...}, which runs without convergence barriers. */
    public static boolean isSlowPath(String name) {
        String owner = ownerOf(name);
        return owner != null && name.startsWith("__internal_", owner.length() + 2);
    }

    /**
     * Whether {@code f} is an internal subroutine: a subroutine returning through a pair other than the convention's
     * (the front end's choice for one its section's code alone calls directly). Every call to it lists the registers
     * it writes ({@link FunctionCodegen}), so it saves none but its own return address where a call of its own
     * overwrites that.
     */
    public static boolean isInternal(OriFunction f) {
        return isSubroutine(f) && returnPair(f) != RETURN_ADDRESS;
    }

    /** The register pair {@code f}'s {@code RET} reads its return address from; the convention's for none. */
    public static int returnPair(OriFunction f) {
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                if (in.op().name().equals("RET") && !in.srcs().isEmpty() && in.srcs().get(0).value() instanceof Reg r
                        && r.file() == RegFile.R && !r.virtual()) {
                    return r.index();
                }
            }
        }
        return RETURN_ADDRESS;
    }

    /** Whether {@code in} is a true call (the call pseudo-instruction after the calling convention). */
    static boolean isCall(Instr in) {
        return in.op().name().equals("CALL") && !in.srcs().isEmpty()
                && (in.srcs().get(0).value() instanceof Sym s && s.kind() == Sym.Kind.FUNCTION
                || in.srcs().get(0).value() instanceof Reg);
    }

    /** Whether {@code in} is a true call through a register (before {@link #afterAllocation} rewrites its operands). */
    static boolean isIndirectCall(Instr in) {
        return isCall(in) && in.srcs().get(0).value() instanceof Reg && !in.hasMod("ABS");
    }

    /**
     * Whether {@code in} is a whole-program system call: {@code CALL.ABS} through the register pair holding the
     * address the loader put in constant bank 4 ({@link AddressTable}).
     */
    static boolean isSystemCall(Instr in) {
        return isCall(in) && in.srcs().get(0).value() instanceof Reg && in.hasMod("ABS");
    }

    /** The carry of the sm_75 … sm_89 return-address sum (any predicate but the call's guard: calls clobber them). */
    private static Reg carry(Guard g) {
        return Reg.phys(RegFile.P, !g.isAlways() && g.predicate().index() == 0 ? 1 : 0, 1);
    }

    /**
     * A system call's return address is PC-relative, as ptxas makes it in an executable (nothing left to relocate):
     * from sm_90 on {@code LEPC R20, `(return point)}; before, {@code LEPC} gives its own address, to which
     * {@code IADD3}/{@code IADD3.X} add the distance to the return point ({@link #RETURN_DISTANCE_PLACEHOLDER} until
     * {@link #finishCalls} knows it). The call itself is {@code CALL.ABS.NOINC R2} (the last instruction returned).
     */
    private static List<Instr> systemCallSequence(Instr call, OriOpcodes ops, boolean lepcNamesReturnPoint,
            String function) {
        Guard g = call.guard();
        Reg ra = Reg.phys(RegFile.R, RETURN_ADDRESS, 2);
        List<Instr> out = new ArrayList<>();
        // sm_90's LEPC names a label: the function's own until finishCalls knows the return point
        out.add(new Instr(ops.require("LEPC"), List.of(), List.of(ra),
                lepcNamesReturnPoint ? List.of(Src.of(new Sym(function, Sym.Kind.FUNCTION))) : List.of(), g,
                call.line()));
        if (!lepcNamesReturnPoint) {
            Reg lo = Reg.phys(RegFile.R, RETURN_ADDRESS, 1);
            Reg hi = Reg.phys(RegFile.R, RETURN_ADDRESS + 1, 1);
            Reg c = carry(g);
            out.add(new Instr(ops.require("IADD3"), List.of(), List.of(lo, c, Reg.PT),
                    List.of(Src.of(lo), Src.of(Imm.ofInt(RETURN_DISTANCE_PLACEHOLDER)), Src.of(Reg.RZ)), g, call.line()));
            out.add(new Instr(ops.require("IADD3"), List.of("X"), List.of(hi, Reg.PT, Reg.PT),
                    List.of(Src.of(Reg.RZ), Src.of(hi), Src.of(Reg.RZ), Src.of(c), Src.of(Reg.PT).inverted()), g,
                    call.line()));
        }
        Reg target = (Reg) call.srcs().get(0).value();
        out.add(new Instr(call.op(), call.mods(), List.of(),
                List.of(Src.of(Reg.phys(RegFile.R, target.index(), 2))), g, call.line()));
        return out;
    }

    /** Placeholder of the distance from {@code LEPC} to the return point (sm_75 … sm_89). */
    static final int RETURN_DISTANCE_PLACEHOLDER = 0xfffff8;

    /** Rewrites the allocated {@code f} as described above; returns the allocation result with the final frame. */
    static RegisterAllocator.Result afterAllocation(OriFunction f, RegisterAllocator.Result ra) {
        return afterAllocation(f, ra, true, Map.of());
    }

    static RegisterAllocator.Result afterAllocation(OriFunction f, RegisterAllocator.Result ra,
            boolean lepcNamesReturnPoint) {
        return afterAllocation(f, ra, lepcNamesReturnPoint, Map.of());
    }

    /**
     * As above; {@code lepcNamesReturnPoint} says how a call through a loaded address gets its return address
     * ({@link org.jptxas.ori.target.TargetFeature#LEPC_NAMES_RETURN_POINT}) and {@code internalPairs} where each
     * internal subroutine a call may name takes its return address ({@link #returnPair}).
     */
    static RegisterAllocator.Result afterAllocation(OriFunction f, RegisterAllocator.Result ra,
            boolean lepcNamesReturnPoint, Map<String, Integer> internalPairs) {
        OriOpcodes ops = OriOpcodes.get();
        boolean internal = isInternal(f);
        int ownPair = returnPair(f);
        // before the calls lose their clobber lists below
        boolean overwritesOwn = !f.entry() && callsOverwrite(f, ownPair);
        boolean calls = false;
        for (BasicBlock b : f.body().blocks()) {
            List<Instr> is = b.instrs();
            for (int i = 0; i < is.size(); i++) {
                Instr in = is.get(i);
                if (!isCall(in)) {
                    continue;
                }
                calls = true;
                Guard g = in.guard();
                if (isSystemCall(in)) {
                    List<Instr> seq = systemCallSequence(in, ops, lepcNamesReturnPoint, f.name());
                    is.set(i, seq.get(seq.size() - 1));
                    is.addAll(i, seq.subList(0, seq.size() - 1));
                    i += seq.size() - 1;
                    continue;
                }
                List<Src> printed = in.srcs().get(0).value() instanceof Reg target // R6, R7, owner: R6 `(owner)
                        ? List.of(Src.of(Reg.phys(RegFile.R, target.index(), 2)), in.srcs().get(2))
                        : in.hasMod("ABS") && in.srcs().get(0).value() instanceof Sym callee
                        // a call into another object: encoded as 0x0 with a relocation ({@link #finishCalls})
                        ? List.of(Src.of(new Sym(callee.name(), Sym.Kind.FUNCTION, Sym.Part.LO32, 0)))
                        : List.of(in.srcs().get(0));
                int pair = in.srcs().get(0).value() instanceof Sym s ? internalPairs.getOrDefault(s.name(),
                        RETURN_ADDRESS) : RETURN_ADDRESS;
                is.set(i, new Instr(in.op(), in.mods(), List.of(), printed, g, in.line()));
                is.add(i, new Instr(ops.require("MOV"), List.of(), List.of(Reg.phys(RegFile.R, pair + 1, 1)),
                        List.of(Src.of(Imm.ofInt(0))), g, in.line()));
                is.add(i, new Instr(ops.require("MOV"), List.of(), List.of(Reg.phys(RegFile.R, pair, 1)),
                        List.of(Src.of(Imm.ofInt(RETURN_PLACEHOLDER))), g, in.line()));
                i += 2;
            }
        }
        boolean callee = !f.entry(); // a subroutine or a function of its own (relocatable output)
        TreeSet<Integer> saved = new TreeSet<>();
        if (callee) {
            if (calls && (!internal || overwritesOwn)) { // the return address it returns through
                saved.add(ownPair);
                saved.add(ownPair + 1);
            }
            for (BasicBlock b : internal ? List.<BasicBlock>of() : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    for (Reg d : in.dsts()) {
                        if (d.file() == RegFile.R && !d.virtual() && !d.isZero()) {
                            for (int k = 0; k < d.comps(); k++) {
                                if (calleeSaved(d.index() + k)) {
                                    saved.add(d.index() + k);
                                }
                            }
                        }
                    }
                }
            }
        }
        List<Instr> entry = f.body().blocks().get(0).instrs();
        int prologueEnd = 0;
        long own = 0;
        // the frame set-up (a kernel's MOV R1, c[0x0][0x28], then its locals' IADD3 R1): other instructions the
        // scheduler placed among it do not end it, the first use of R1 does
        for (int k = 0; k < entry.size(); k++) {
            Instr in = entry.get(k);
            if (definesSp(in)) {
                prologueEnd = k + 1;
                if (in.op().name().equals("IADD3") && in.srcs().get(1).value() instanceof Imm imm) {
                    own -= (int) imm.bits();
                }
            } else if (readsSp(in)) {
                break;
            }
        }
        long spillEnd = ra.frameBytes();
        long saveBase = (spillEnd + 3) / 4 * 4;
        // R1 stays 16-byte aligned for whatever a function's locals or its callees' need
        long align = calls || f.attrs().localBytes() > 0 ? 16 : 8;
        long total = (saveBase + 4L * saved.size() + align - 1) / align * align;
        long extra = Math.max(0, total - own);
        if (extra == 0 && saved.isEmpty()) {
            if (callee) {
                epilogues(f, ops, saved, 0, 0);
            }
            return ra;
        }
        List<Instr> prologue = new ArrayList<>();
        if (extra > 0) {
            prologue.add(adjust(ops, -extra, Guard.ALWAYS, f.line()));
        }
        long slot = saveBase;
        for (int r : saved) {
            prologue.add(new Instr(ops.require("STL"), List.of(), List.of(),
                    List.of(Src.of(Addr.of(SP, slot)), Src.of(Reg.phys(RegFile.R, r, 1))), Guard.ALWAYS, f.line()));
            slot += 4;
        }
        entry.addAll(prologueEnd, prologue);
        if (callee) {
            epilogues(f, ops, saved, saveBase, extra);
        }
        return new RegisterAllocator.Result(ra.registers(), total, ra.spillStoreBytes(), ra.spillLoadBytes());
    }

    /** Whether a call of {@code f} (its clobber list narrowed to what the callee writes) overwrites the pair {@code r}. */
    private static boolean callsOverwrite(OriFunction f, int r) {
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                if (in.op().name().equals("CALL")) {
                    for (Reg d : in.dsts()) {
                        if (d.file() == RegFile.R && !d.virtual() && d.index() <= r + 1 && d.index() + d.comps() > r) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /** Reloads the saved registers and releases the extra frame before every RET. */
    private static void epilogues(OriFunction f, OriOpcodes ops, TreeSet<Integer> saved, long saveBase, long extra) {
        for (BasicBlock b : f.body().blocks()) {
            List<Instr> is = b.instrs();
            for (int i = 0; i < is.size(); i++) {
                Instr ret = is.get(i);
                if (!ret.op().name().equals("RET")) {
                    continue;
                }
                if (ret.srcs().size() >= 2 && ret.srcs().get(0).value() instanceof Reg) {
                    // R20, R21 (, function): printed as the pair and the function, or the pair and 0x0 (absolute)
                    Src second = ret.srcs().size() == 3 ? ret.srcs().get(2) : Src.of(Imm.ofInt(0));
                    ret = new Instr(ret.op(), ret.mods(), List.of(),
                            List.of(Src.of(Reg.phys(RegFile.R, ((Reg) ret.srcs().get(0).value()).index(), 2)), second),
                            ret.guard(), ret.line());
                    is.set(i, ret);
                }
                int at = i;
                while (at > 0 && definesSp(is.get(at - 1))) {
                    at--;
                }
                List<Instr> epilogue = new ArrayList<>();
                long slot = saveBase;
                for (int r : saved) {
                    epilogue.add(new Instr(ops.require("LDL"), List.of(), List.of(Reg.phys(RegFile.R, r, 1)),
                            List.of(Src.of(Addr.of(SP, slot))), ret.guard(), ret.line()));
                    slot += 4;
                }
                is.addAll(at, epilogue);
                i += epilogue.size();
                if (extra > 0) {
                    is.add(i, adjust(ops, extra, ret.guard(), ret.line()));
                    i++;
                }
            }
        }
    }

    /**
     * {@code MOV R20, 32@lo((f + .L@srel))}, nvdisasm's text of the relocated return address (the label names the
     * instruction after the call): the move's immediate is 0x0, the linker writes the address
     * ({@link #isSectionRelative}); the listing prints the relocation in its place.
     */
    private static CodeLine returnAddressMove(CodeLine move, int immediate, Sym.Part part, String section, long offset,
            String label) {
        String target = label != null ? label : "0x" + Long.toHexString(offset);
        SassOp op = move.op().withImmediate(immediate, 0);
        String shown = (part == Sym.Part.LO32 ? "32@lo((" : "32@hi((") + section + " + " + target + SECTION_RELATIVE
                + "))";
        return new CodeLine(move.label(), op.text(immediate, shown), op.text(), move.control(),
                new Sym(section, Sym.Kind.FUNCTION, part, offset), move.ptxLine(), op, null, target);
    }

    /**
     * The slot of the immediate {@code placeholder} that {@code line} moves into {@code R<reg>}
     * ({@code MOV R20, 0xfffff0}, {@code IMAD.MOV.U32 R20, RZ, RZ, 0xfffff0}), or -1 for any other line.
     */
    private static int placeholderMove(CodeLine line, int reg, long placeholder) {
        SassOp op = line.op();
        if (!(line.mnemonic().equals("MOV") || line.opcode().startsWith("IMAD.MOV"))
                || reg != ANY_REGISTER && op.register(0, SlotKind.GPR) != reg) {
            return -1;
        }
        int slot = op.immediateSlot(op.operandCount() - 1);
        return slot >= 0 && op.immediate(slot) == placeholder ? slot : -1;
    }

    /**
     * The slot of the return distance placeholder in {@code IADD3 R20, P0, PT, R20, 0xfffff8, RZ}
     * ({@link #systemCallSequence}), or -1 for any other line.
     */
    private static int returnDistance(CodeLine line) {
        SassOp op = line.op();
        if (!line.opcode().equals("IADD3") || op.register(0, SlotKind.GPR) != RETURN_ADDRESS) {
            return -1;
        }
        for (int k = 1; k < op.operandCount(); k++) {
            int slot = op.immediateSlot(k);
            if (slot >= 0 && op.immediate(slot) == RETURN_DISTANCE_PLACEHOLDER) {
                return slot;
            }
        }
        return -1;
    }

    /** Whether {@code line} is the system call's {@code LEPC R20} ({@link #systemCallSequence}). */
    private static boolean isReturnAddressLepc(CodeLine line) {
        return line.opcode().equals("LEPC") && line.op().register(0, SlotKind.GPR) == RETURN_ADDRESS;
    }

    /**
     * Completes the return address of the system call at {@code call} ({@link #systemCallSequence}): the
     * {@code LEPC} before it names the return point (sm_90+), or the {@code IADD3} after the {@code LEPC} gets the
     * distance from the {@code LEPC} to the return point.
     */
    private static void pcRelativeReturn(List<CodeLine> out, int call, String returnLabel) {
        // both rewrites change the typed instruction and print the line from it
        int lepc = call - 1;
        while (lepc >= 0 && !isReturnAddressLepc(out.get(lepc))) {
            lepc--;
        }
        if (lepc < 0) {
            throw new IllegalStateException("system call without LEPC at instruction " + call);
        }
        for (int j = lepc + 1; j < call; j++) {
            CodeLine add = out.get(j);
            int slot = returnDistance(add);
            if (slot >= 0) {
                long distance = (long) (call + 1 - lepc) * FunctionLayout.INSTRUCTION_BYTES;
                out.set(j, retyped(add, add.op().withImmediate(slot, distance)));
                return;
            }
        }
        CodeLine l = out.get(lepc); // LEPC R20, `(f): the function's own label until now
        out.set(lepc, retyped(l, l.op().retargeted(l.op().target(), returnLabel)));
    }

    /** {@code line} as the instruction {@code op}, printed from it. */
    private static CodeLine retyped(CodeLine line, SassOp op) {
        if (op == null) {
            throw new IllegalStateException("no encoding of '" + line.text() + "' with its operand changed");
        }
        String text = op.text();
        return new CodeLine(line.label(), text, text, line.control(), line.symbol(), line.ptxLine(), op);
    }

    /**
     * {@code CALL.ABS.NOINC 0x0} (a relocated callee) as {@code CALL.REL.NOINC `(label)}: the same operands in the
     * relative form, its target the label.
     */
    private static SassOp branchingTo(SassOp call, SassEncoder encoder, String label) {
        int slot = call.immediateSlot(0);
        String skeleton = call.form().skeleton().replace("CALL.ABS", "CALL.REL");
        return (slot < 0 ? java.util.Optional.<SassOp>empty() : encoder.branching(call, skeleton, slot, label))
                .orElseThrow(() -> new IllegalStateException("no relative form of '" + call.text() + "'"));
    }

    /**
     * {@code CALL.ABS.NOINC 0x0} calling {@code callee} of another object: the words keep 0x0 for the linker's
     * relocation, the listing names the callee ({@code CALL.ABS.NOINC `(callee)}) as nvdisasm does.
     */
    private static CodeLine relocatedCall(CodeLine call, String callee) {
        SassOp op = call.op();
        int slot = op.immediateSlot(0);
        if (slot < 0) {
            throw new IllegalStateException("no relocated callee address in '" + call.text() + "'");
        }
        return new CodeLine(call.label(), op.text(slot, "`(" + callee + ")"), op.text(), call.control(),
                new Sym(callee, Sym.Kind.FUNCTION), call.ptxLine(), op);
    }

    /** Marks a return address relative to the section's own function, which stays a relocation. */
    static final String SECTION_RELATIVE = "@srel";

    /** Whether {@code line} holds a return address the linker relocates (its symbol is the section's function). */
    static boolean isSectionRelative(CodeLine line) {
        return line.symbol() != null && line.returnPoint() != null;
    }

    private static Instr adjust(OriOpcodes ops, long bytes, Guard g, int line) {
        return new Instr(ops.require("IADD3"), List.of(), List.of(SP, Reg.PT, Reg.PT),
                List.of(Src.of(SP), Src.of(Imm.ofInt((int) bytes)), Src.of(Reg.RZ)), g, line);
    }

    private static boolean readsSp(Instr in) {
        return in.usedRegs().stream().anyMatch(r -> r.equals(SP));
    }

    private static boolean definesSp(Instr in) {
        return !in.dsts().isEmpty() && in.dsts().get(0).equals(SP);
    }

    /**
     * Resolves the addresses of functions placed in this section ({@code 32@lo($owner$f)}): the low word is the
     * subroutine's offset in the section, the high word 0; nothing is left to relocate. The relocated field (the
     * 32-bit immediate an {@code R_CUDA_ABS32_*_32} relocation writes) gets the value, and the line is printed from
     * the instruction.
     */
    static List<CodeLine> resolveFunctionAddresses(List<CodeLine> code, java.util.Map<String, Long> labels) {
        List<CodeLine> out = new ArrayList<>(code);
        for (int i = 0; i < out.size(); i++) {
            CodeLine line = out.get(i);
            Sym s = line.symbol();
            if (s == null || s.kind() != Sym.Kind.FUNCTION || s.part() == Sym.Part.WHOLE || !labels.containsKey(s.name())
                    || isSectionRelative(line)) {
                continue;
            }
            long value = s.part() == Sym.Part.LO32 ? labels.get(s.name()) + s.addend() : 0;
            SassOp op = line.op();
            int slot = relocatedSlot(op);
            if (slot < 0) {
                throw new IllegalStateException("no relocated immediate in '" + line.text() + "'");
            }
            CodeLine resolved = retyped(line, op.withValue(slot, value));
            out.set(i, new CodeLine(resolved.label(), resolved.text(), resolved.assembly(), resolved.control(), null,
                    resolved.ptxLine(), resolved.op()));
        }
        return out;
    }

    /** The slot an {@code R_CUDA_ABS32_LO_32}/{@code _HI_32} relocation writes: a 32-bit immediate at bit 32. */
    private static int relocatedSlot(SassOp op) {
        for (int k = 0; k < op.operandCount(); k++) {
            int slot = op.immediateSlot(k);
            if (slot >= 0 && op.form().slot(slot) instanceof SassSlot.Field f && f.shift() == 0
                    && f.field().width() == 32 && f.field().positions()[0] == 32) {
                return slot;
            }
        }
        return -1;
    }

    /**
     * Writes each call's return address (the byte offset, in the section, of the instruction after it) into the
     * move placed before it, and makes calls and returns wait for every scoreboard with at least ptxas's stall, so
     * nothing in flight crosses into the other function.
     */
    static List<CodeLine> finishCalls(List<CodeLine> code, String section, SassIsa isa) {
        List<CodeLine> out = new ArrayList<>(code);
        for (int i = 0; i < out.size(); i++) {
            CodeLine line = out.get(i);
            String m = line.mnemonic();
            if (!m.equals("CALL") && !m.equals("RET")) {
                continue;
            }
            Control c = line.control();
            if (c != null) {
                int stall = Math.max(c.stall(), m.equals("CALL") ? 5 : 6);
                out.set(i, line.withControl(new Control(stall, Control.yieldAllowed(stall),
                        c.writeBarrier(), c.readBarrier(), 0x3f, c.opex())));
            }
            if (m.equals("CALL")) {
                long returnAddress = (long) (i + 1) * FunctionLayout.INSTRUCTION_BYTES;
                boolean absolute = line.opcode().startsWith("CALL.ABS");
                String returnLabel = null;
                if (absolute && i + 1 < out.size()) { // the listing names the return point, as nvdisasm does
                    CodeLine next = out.get(i + 1);
                    returnLabel = next.label() != null ? next.label() : ".L_ret_" + (i + 1);
                    out.set(i + 1, next.withLabel(returnLabel));
                }
                if (absolute && line.symbol() == null && returnLabel != null) {
                    pcRelativeReturn(out, i, returnLabel);
                    continue;
                }
                if (absolute && line.symbol() != null) {
                    // CALL.ABS.NOINC `(f): the callee's address comes from an R_CUDA_ABS relocation; a function of
                    // its own calling itself (recursion, -c) branches to its start instead, CALL.REL.NOINC `(f), as
                    // ptxas does (its return address stays absolute and relocated)
                    String callee = line.symbol().name();
                    CodeLine current = out.get(i);
                    if (callee.equals(section)) {
                        out.set(i, retyped(current, branchingTo(current.op(), new SassEncoder(isa), callee))
                                .withSymbol(new Sym(callee, Sym.Kind.FUNCTION)));
                    } else {
                        out.set(i, relocatedCall(current, callee));
                    }
                }
                boolean high = !absolute; // a relative return address has no high word to relocate
                boolean low = false;
                for (int j = i - 1; j >= 0 && !(low && high); j--) {
                    CodeLine prev = out.get(j);
                    int highSlot = high ? -1 : placeholderMove(prev, RETURN_ADDRESS + 1, 0);
                    // (a call to an internal subroutine is relative: only its low word is searched for)
                    int lowSlot = low ? -1 : placeholderMove(prev, ANY_REGISTER, RETURN_PLACEHOLDER);
                    if (highSlot >= 0) {
                        // the absolute return address: the section's function plus the offset, relocated (RELA)
                        out.set(j, returnAddressMove(prev, highSlot, Sym.Part.HI32, section, returnAddress,
                                returnLabel));
                        high = true;
                    } else if (lowSlot >= 0) {
                        if (absolute) {
                            out.set(j, returnAddressMove(prev, lowSlot, Sym.Part.LO32, section, returnAddress,
                                    returnLabel));
                        } else {
                            out.set(j, retyped(prev, prev.op().withImmediate(lowSlot, returnAddress)));
                        }
                        low = true;
                    }
                }
            }
        }
        return out;
    }
}
