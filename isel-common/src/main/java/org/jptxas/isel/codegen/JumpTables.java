package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.sass.SassEncoder;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassOp;

/**
 * {@code brx.idx} as ptxas compiles it. The front end lowers it to {@code BRX index, entry...} (a 32-bit index and a
 * block label per table entry); in a kernel of an executable this pass makes it ptxas's indirect branch:
 * {@code SHF.L.U32 t, index, 0x2, RZ; LDC lo, c[0x2][t+table]; SHF.R.S32.HI hi, RZ, 0x1f, lo; BRX lo:hi, table,
 * entry...}, the table being the kernel's words at {@code table} in constant bank 2 ({@code .nv.constant2.<k>}), each
 * the function-relative address of its entry, which {@link FunctionCodegen} fills in once the code is laid out. The
 * BRX's immediate operand is that table offset until then (the encoded immediate is minus the address after the
 * BRX). A kernel's subroutine copies share its section and so its bank: their tables follow the kernel's
 * ({@link #bases}). Relocatable output (ptxas relocates the table there) and device functions of their own keep a
 * compare-and-branch chain over the entries.
 */
public final class JumpTables {
    /** The constant bank of jump tables. */
    public static final int BANK = 2;

    private JumpTables() {}

    /**
     * A BRX's jump table: its byte offset in constant bank 2 and the label of each entry, in index order (a label
     * may repeat).
     */
    public record Table(int offset, List<String> entries) {
        public Table {
            entries = List.copyOf(entries);
        }
    }

    /**
     * The expanding stage ("jumptables"), run after the optimizer and before legalisation: the function's tables
     * start at byte {@code base} of the bank; a null base keeps chains.
     */
    public static OriPass pass(Integer base) {
        return OriPass.of("jumptables", (f, cx) -> expand(f.body(), base));
    }

    /**
     * Where each function of a section ({@code section}: the owner first, then the subroutines placed after it)
     * starts its tables in the section's bank: the kernel's first, then each subroutine's in order. Empty for
     * relocatable output and for a section that is not a kernel's.
     */
    static java.util.Map<String, Integer> bases(List<OriFunction> section, boolean relocatable) {
        java.util.Map<String, Integer> bases = new java.util.HashMap<>();
        if (relocatable || section.isEmpty() || !section.get(0).entry()) {
            return bases;
        }
        int next = 0;
        for (OriFunction f : section) {
            bases.put(f.name(), next);
            next += tableBytes(f.body());
        }
        return bases;
    }

    /** The bytes the tables of {@code body}'s unexpanded BRXs take. */
    private static int tableBytes(FunctionBody body) {
        int bytes = 0;
        for (BasicBlock block : body.blocks()) {
            if (unexpanded(block.last())) {
                bytes += 4 * (block.last().srcs().size() - 1);
            }
        }
        return bytes;
    }

    private static boolean unexpanded(Instr last) {
        return last != null && last.isIndirectBranch() && !(last.srcs().get(1).value() instanceof Imm);
    }

    /** Expands every BRX of {@code body}: through tables laid out one after another from {@code base}, or chains. */
    static void expand(FunctionBody body, Integer base) {
        int offset = base == null ? 0 : base;
        for (int b = 0; b < body.blocks().size(); b++) {
            BasicBlock block = body.block(b);
            if (!unexpanded(block.last())) {
                continue;
            }
            if (base != null) {
                offset += 4 * table(body, block, offset);
            } else {
                chain(body, block);
            }
        }
    }

    /** Replaces the BRX ending {@code block} by the load through a table at {@code offset}; its number of entries. */
    private static int table(FunctionBody body, BasicBlock block, int offset) {
        OriOpcodes ops = OriOpcodes.get();
        List<Instr> is = block.instrs();
        Instr brx = is.remove(is.size() - 1);
        int line = brx.line();
        Src index = perThread(body, is, brx);
        Reg scaled = body.newVirtual(RegFile.R, 1);
        Reg target = body.newVirtual(RegFile.R, 2);
        is.add(new Instr(ops.require("SHF"), List.of("L", "U32"), List.of(scaled),
                List.of(index, Src.of(Imm.ofInt(2)), Src.of(Reg.RZ)), Guard.ALWAYS, line));
        is.add(new Instr(ops.require("LDC"), List.of(), List.of(target.component(0)),
                List.of(Src.of(new CBank(BANK, offset, scaled))), Guard.ALWAYS, line));
        is.add(new Instr(ops.require("SHF"), List.of("R", "S32", "HI"), List.of(target.component(1)),
                List.of(Src.of(Reg.RZ), Src.of(Imm.ofInt(31)), Src.of(target.component(0))), Guard.ALWAYS, line));
        List<Src> srcs = new ArrayList<>();
        srcs.add(Src.of(target));
        srcs.add(Src.of(Imm.ofInt(offset)));
        srcs.addAll(brx.srcs().subList(1, brx.srcs().size()));
        is.add(new Instr(brx.op(), List.of(), List.of(), srcs, Guard.ALWAYS, line));
        return srcs.size() - 2;
    }

    /**
     * Replaces the BRX ending {@code block} by a compare and a conditional branch per entry but the last, each in a
     * block of its own, and a branch to the last entry (an index past the table takes the last entry).
     */
    static void chain(FunctionBody body, BasicBlock block) {
        OriOpcodes ops = OriOpcodes.get();
        int entries = block.last().srcs().size() - 1;
        List<BasicBlock> tests = new ArrayList<>();
        tests.add(block);
        for (int k = 1; k < entries; k++) {
            // inserted while the BRX is still in place, so its labels follow the renumbering
            tests.add(body.insertBlock(block.id() + k, null));
        }
        Instr brx = block.instrs().remove(block.instrs().size() - 1);
        Src index = perThread(body, block.instrs(), brx);
        for (int k = 0; k < entries; k++) {
            BasicBlock at = tests.get(k);
            BlockLabel entry = (BlockLabel) brx.srcs().get(1 + k).value();
            Instr branch = new Instr(ops.require("BRA"), List.of(), List.of(), List.of(Src.of(entry)), Guard.ALWAYS,
                    brx.line());
            if (k < entries - 1) {
                Reg hit = body.newVirtual(RegFile.P, 1);
                at.instrs().add(new Instr(ops.require("ISETP"), List.of("EQ", "U32", "AND"), List.of(hit, Reg.PT),
                        List.of(index, Src.of(Imm.ofInt(k)), Src.of(Reg.PT)), Guard.ALWAYS, brx.line()));
                branch.setGuard(new Guard(hit, false));
            }
            at.instrs().add(branch);
        }
    }

    /** The BRX's index in a per-thread register: a uniform one is copied (appended to {@code is}). */
    private static Src perThread(FunctionBody body, List<Instr> is, Instr brx) {
        Src index = brx.srcs().get(0);
        if (index.value() instanceof Reg r && r.file() != RegFile.R) {
            Reg copy = body.newVirtual(RegFile.R, 1);
            is.add(new Instr(OriOpcodes.get().require("MOV"), List.of(), List.of(copy), List.of(index), Guard.ALWAYS,
                    brx.line()));
            return Src.of(copy);
        }
        return index;
    }

    /**
     * The line of a BRX through a table once its registers are allocated, typed in the target's encoding
     * ({@code isa}; its immediate, here 0, is fixed at layout, {@link Layout#branch}); null for any other instruction.
     */
    public static CodeLine line(Instr in, String label, java.util.function.IntFunction<String> labels, SassIsa isa) {
        Table table = tableOf(in, labels);
        if (table == null) {
            return null;
        }
        Reg target = (Reg) in.srcs().get(0).value();
        if (target.virtual() || target.file() != RegFile.R || !in.guard().isAlways()) {
            throw new IllegalStateException("BRX through " + target + " under " + in.guard());
        }
        SassOp op = new SassEncoder(isa).instruction("BRX {} {}", new long[] {target.index(), 0}, new String[2])
                .orElseThrow(() -> new IllegalStateException("no " + isa.sm() + " form of BRX through a register"));
        String text = op.text();
        return new CodeLine(label, text, text, null, null, in.line(), op, table, null);
    }

    /** The table of a BRX made by this pass, its entries named by {@code labels}; null for any other instruction. */
    public static Table tableOf(Instr in, java.util.function.IntFunction<String> labels) {
        if (!in.isIndirectBranch() || in.branchTargets().isEmpty() || !(in.srcs().get(1).value() instanceof Imm at)) {
            return null;
        }
        List<String> entries = new ArrayList<>();
        for (Src s : in.srcs().subList(2, in.srcs().size())) {
            entries.add(labels.apply(((BlockLabel) s.value()).block()));
        }
        return new Table((int) at.bits(), entries);
    }

    /** EIATTR_INDIRECT_BRANCH_TARGETS: per BRX, its offset, 0, the number of table entries and their addresses. */
    static final int INDIRECT_BRANCH_TARGETS = 0x34;

    /**
     * A function's jump tables as its code is assembled: each BRX's immediate (minus the address after it, so the
     * branch goes to the function-relative address the table holds), the bank's words and the BRANCH_TARGETS record.
     */
    static final class Layout {
        private int[] bank = new int[0];
        private final List<Integer> record = new ArrayList<>();

        /**
         * {@code line}, a BRX at {@code address} through a table ({@link JumpTables#line}), with its immediate set
         * in its typed instruction; its entries' addresses go into the table and the record.
         */
        CodeLine branch(CodeLine line, long address, java.util.Map<String, Long> labels) {
            Table t = line.jumpTable();
            int first = t.offset() / 4;
            if (bank.length < first + t.entries().size()) {
                bank = java.util.Arrays.copyOf(bank, first + t.entries().size());
            }
            record.add((int) address);
            record.add(0);
            record.add(t.entries().size());
            for (int k = 0; k < t.entries().size(); k++) {
                Long target = labels.get(t.entries().get(k));
                if (target == null) {
                    throw new IllegalArgumentException("jump table entry " + t.entries().get(k) + " has no address");
                }
                bank[first + k] = target.intValue();
                record.add(target.intValue());
            }
            SassOp op = line.op();
            int slot = op.lastImmediateField();
            SassOp placed = slot < 0 ? null : op.withImmediate(slot, -(address + FunctionLayout.INSTRUCTION_BYTES));
            if (placed == null) {
                throw new IllegalStateException("no immediate for the table offset in '" + op.text() + "'");
            }
            String text = placed.text();
            return new CodeLine(line.label(), text, text, line.control(), line.symbol(), line.ptxLine(), placed, t,
                    null);
        }

        /** The bank's bytes, little-endian; empty without tables. */
        byte[] bank() {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * bank.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int w : bank) {
                b.putInt(w);
            }
            return b.array();
        }

        /** {@code attributes} with the BRANCH_TARGETS record when there are tables. */
        List<org.jptxas.cubin.info.Attribute> withRecord(List<org.jptxas.cubin.info.Attribute> attributes) {
            if (record.isEmpty()) {
                return attributes;
            }
            List<org.jptxas.cubin.info.Attribute> out = new ArrayList<>(attributes);
            out.add(new org.jptxas.cubin.info.Attribute.Words(INDIRECT_BRANCH_TARGETS,
                    record.stream().mapToInt(Integer::intValue).toArray()));
            return out;
        }
    }
}
