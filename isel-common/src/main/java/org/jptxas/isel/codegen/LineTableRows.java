package org.jptxas.isel.codegen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.DebugLine;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.ori.ir.SourceLines;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;

/**
 * Turns the PTX lines the emitted SASS instructions carry ({@link CodeLine#ptxLine()}) into the rows of ptxas's two
 * line tables, per function in the cubin's order:
 * <ul>
 * <li>{@code .debug_line}: the {@code .loc} in effect at the instruction's PTX line. An instruction without one
 * (code the compiler adds, or a {@code .loc} with line 0) continues the row before it. The body's first {@code .loc}
 * goes to the stack set-up, as ptxas gives it to its stack set-up at address 0; jptxas's scheduler may place that
 * later, and the first instruction then keeps its own line (else a line ptxas annotates would be lost). Without a
 * stack set-up the entry (address 0) is the first {@code .loc} (nvdisasm shows one line per address).</li>
 * <li>{@code .nv_debug_line_sass}: the PTX line itself. The entry is the line of the body's {@code {} (in the same
 * way), the code after the body's last instruction (the closing self-branch and padding) the line of its
 * {@code }}.</li>
 * </ul>
 * A funnel shift by zero that copies a high word continues the row before, as a register copy does
 * ({@link #wordCopy}). A shift ptxas fuses into the add that reads it takes that add's line ({@link ShiftIntoAddLines}), a shared load
 * ptxas merges with the load of the word below into one LDS.64 that load's line ({@link LoadPairLines}); an absolute
 * value or an address offset ptxas folds into an operand continues the row before ({@link FoldedOperandLines}); a
 * copy in a branch arm made conditional takes the arm's last line ({@link #ifConvertedCopy}), and a copy such an arm
 * overwrites takes the branch's line ({@link #copyBeforeArm}). A texture fetch and a local store ptxas removes as dead
 * continue the row before ({@link RowlessInstructions}).
 * A row is written where the line changes. A function without any source line gets no {@code .debug_line} sequence.
 */
public final class LineTableRows {
    private LineTableRows() {}

    /**
     * ptxas numbers {@code .nv_debug_line_sass}'s file 0 in executables and 1 (the PTX text's section) in -c output.
     * {@code .debug_line}'s file table lists the {@code .file}s by index, and its rows name a file by its
     * {@code .file} index as is (ptxas 13 does so even where indices leave gaps, so a row may then name a file the
     * table numbers differently).
     */
    public static CubinBuilder.LineTables of(SourceLines lines, List<CompiledFunction> compiled, boolean relocatable) {
        return of(lines, compiled, relocatable, true);
    }

    /**
     * The tables of an optimized ({@code optimized}: -O1 and above, not -g) or unoptimized compilation: ptxas removes
     * dead local stores only when it optimizes, and {@link RowlessInstructions} is applied to optimized code only.
     */
    public static CubinBuilder.LineTables of(SourceLines lines, List<CompiledFunction> compiled, boolean relocatable,
            boolean optimized) {
        List<DebugLine.File> files = lines.files().stream()
                .sorted(java.util.Comparator.comparingInt(SourceLines.File::index))
                .map(LineTableRows::file).toList();
        List<DebugLine.Sequence> source = new ArrayList<>();
        List<DebugLine.Sequence> ptx = new ArrayList<>();
        PtxLabels labels = new PtxLabels(lines.ptxText());
        for (CompiledFunction c : compiled) {
            String name = c.facts().name();
            SourceLines.FunctionLines body = lines.functions().get(name);
            if (body == null) {
                continue;
            }
            long end = c.facts().code().length;
            List<DebugLine.Row> rows = sourceRows(c.code(), body, labels, optimized,
                    subroutineEntries(c.code(), c.facts(), lines));
            if (!rows.isEmpty()) {
                source.add(new DebugLine.Sequence(name, rows, end));
            }
            ptx.add(new DebugLine.Sequence(name, ptxRows(c.code(), body, relocatable ? 1 : 0), end));
        }
        return new CubinBuilder.LineTables(files, source, ptx, lines.ptxText(), lines.checksum());
    }

    static List<DebugLine.Row> sourceRows(List<CodeLine> code, SourceLines.FunctionLines body) {
        return sourceRows(code, body, new PtxLabels(new byte[0]), true, Map.of());
    }

    /**
     * The {@code .loc} of each subroutine's entry that follows the function in its section, by the index of the
     * subroutine's first instruction. ptxas gives a subroutine's entry its body's first {@code .loc}, as it does a
     * kernel's: the code at its entry is its parameters' copies ({@code ld.param}, under that {@code .loc}) or code it
     * adds ({@code ULDC.64 UR6, c[0x0][0x118]}), and jptxas's is its frame's set-up ({@code IADD3 R1, R1, -0x10, RZ},
     * the saves), which would otherwise continue the caller's last row. Checked with ptxas 13: a {@code .func} whose
     * {@code ld.param}s are at {@code .loc 1 40} and first load at 42 starts with {@code ULDC.64} at line 40;
     * matrix_free_device_matrix_vector_04's {@code FEEvaluation::evaluate} with its parameter copies at 413.
     * <p>
     * A subroutine that begins by calling another with its parameters as they are (no copies: no instruction before
     * the call comes from a line under the first {@code .loc}; Kokkos's {@code device_abort}, {@code .loc 15 80} then
     * the call at 82) starts with the call's return address, which ptxas gives the call's line ({@code MOV R0, 0x1870}
     * at 82, no code at 80): its entry takes the call's {@code .loc}. An entry instruction with a line of its own
     * keeps it (a Triton {@code .func} whose {@code ld.param}s at {@code .loc 1 43} give no code: ptxas's entry
     * {@code S2R R53, SR_TID.X} carries its line 80, and line 43 has no code).
     * A subroutine's symbol is {@code $owner$name} ({@code $k$f}); ptxas's internal helpers
     * ({@code $__internal_...}) have no PTX body and get none.
     */
    static Map<Integer, SourceLines.Loc> subroutineEntries(List<CodeLine> code, FunctionFacts facts,
            SourceLines lines) {
        Map<Integer, SourceLines.Loc> entries = new java.util.HashMap<>();
        String prefix = "$" + facts.name() + "$";
        for (FunctionFacts.InnerFunction inner : facts.inner()) {
            SourceLines.FunctionLines sub = inner.name().startsWith(prefix)
                    ? lines.functions().get(inner.name().substring(prefix.length())) : null;
            if (sub != null && sub.first() != null && sub.first().line() > 0) {
                int entry = (int) (inner.offset() / 16);
                int end = (int) Math.min(code.size(), (inner.offset() + inner.size()) / 16);
                entries.put(entry, entryLoc(code, entry, end, sub));
            }
        }
        return entries;
    }

    /** The entry's {@code .loc} of the subroutine {@code sub} at {@code [entry, end)} (see {@link #subroutineEntries}). */
    private static SourceLines.Loc entryLoc(List<CodeLine> code, int entry, int end, SourceLines.FunctionLines sub) {
        SourceLines.Loc own = entry < end && code.get(entry).ptxLine() > 0 ? sub.locs().get(code.get(entry).ptxLine())
                : null;
        if (own != null && own.line() > 0 && !materializesConstant(code.get(entry))) {
            return own; // an instruction of the body at the entry keeps its line, as a kernel's first one does
        }
        for (int j = entry; j < end; j++) {
            SourceLines.Loc loc = code.get(j).ptxLine() > 0 ? sub.locs().get(code.get(j).ptxLine()) : null;
            if (loc == null || loc.line() <= 0) {
                continue;
            }
            if (loc.equals(sub.first())) {
                return sub.first(); // a parameter's copy
            }
            // the call itself, or its set-up (the return address's MOV) from the call's PTX line
            for (int c = j; c < end; c++) {
                if (code.get(c).mnemonic().equals("CALL")) {
                    return code.get(c).ptxLine() == code.get(j).ptxLine() ? loc : sub.first();
                }
            }
            // no call: register copies before the body's first coded line, which ptxas's allocation does not
            // make, continue into it (progminer's keccak_f800: its first .loc has no code, ptxas's subroutine starts
            // at line 211). A frame's set-up (R1's adjustment) carries the first .loc where ptxas's entry is code it
            // adds (ULDC.64, no line of its own); ptxas 13 sets up the frame of a subroutine that calls nothing (its
            // spills, its .local arrays) in the kernel before the CALL, so where the set-up is followed by code
            // with a line of its own, that code is ptxas's entry and keeps its line (triton's
            // _bwd_kernel_one_col_block, where only jptxas spills: S2R at line 80, as ptxas's)
            if (code.get(entry).op().register(0, SlotKind.GPR) != 1) {
                return loc;
            }
            CodeLine next = entry + 1 < end ? code.get(entry + 1) : null;
            SourceLines.Loc nextLoc = next != null && next.ptxLine() > 0 ? sub.locs().get(next.ptxLine()) : null;
            return nextLoc != null && nextLoc.line() > 0 && !materializesConstant(next) ? nextLoc : sub.first();
        }
        return sub.first();
    }

    static List<DebugLine.Row> sourceRows(List<CodeLine> code, SourceLines.FunctionLines body, PtxLabels labels,
            boolean optimized, Map<Integer, SourceLines.Loc> subroutineEntries) {
        List<DebugLine.Row> rows = new ArrayList<>();
        SourceLines.Loc current = body.first() != null && body.first().line() > 0 ? body.first() : null;
        SourceLines.Loc written = null;
        // ptxas's stack set-up carries the body's first .loc (it is at address 0 in ptxas's code); every other
        // instruction its own. Without a stack set-up, the entry (address 0) is the first .loc.
        SourceLines.Loc first = current;
        int firstAt = first == null ? -1 : 0;
        for (int i = 0; i < code.size() && first != null; i++) {
            if (setsUpStack(code.get(i))) {
                firstAt = i;
                break;
            }
        }
        RowlessInstructions rowless = RowlessInstructions.of(code, optimized);
        for (int i = 0; i < code.size(); i++) {
            SourceLines.Loc loc;
            int consumer;
            int arm;
            int ptxLine = code.get(i).ptxLine();
            boolean movedJoin = joinsBranches(code.get(i)) && joinsCodeFromAboveItsBranch(code, i);
            int label = joinsBranches(code.get(i)) && !movedJoin ? labels.before(ptxLine, body.open()) : -1;
            int branch;
            if (i == firstAt) {
                loc = first;
            } else if (subroutineEntries.containsKey(i)) {
                loc = subroutineEntries.get(i);
            } else if (movedJoin) {
                loc = null;
            } else if ((branch = copyBeforeArm(code, i, labels, body.open())) > 0) {
                loc = body.locs().get(branch);
            } else if ((consumer = constVariableReader(code, i)) >= 0) {
                loc = body.locs().get(code.get(consumer).ptxLine());
            } else if (materializesConstant(code.get(i)) || rowless.rowless(code.get(i))) {
                loc = null;
            } else if ((consumer = ShiftIntoAddLines.consumer(code, i)) >= 0) {
                loc = body.locs().get(code.get(consumer).ptxLine());
            } else if ((consumer = LoadPairLines.partner(code, i)) >= 0) {
                loc = body.locs().get(code.get(consumer).ptxLine());
            } else if (FoldedOperandLines.folded(code, i)) {
                loc = null;
            } else if ((arm = ifConvertedCopy(code.get(i)) ? labels.after(ptxLine, body.close()) : -1) > 0) {
                Map.Entry<Integer, SourceLines.Loc> last = body.locBelow(arm);
                loc = last != null && last.getKey() > ptxLine ? last.getValue() : body.locs().get(ptxLine);
            } else if (label > 0) {
                Map.Entry<Integer, SourceLines.Loc> before = body.locBelow(label);
                loc = before != null && before.getKey() > body.open() ? before.getValue() : null;
            } else {
                loc = body.locs().get(ptxLine);
            }
            if (loc != null && loc.line() > 0) {
                current = loc;
            }
            if (current != null && (written == null || written.file() != current.file()
                    || written.line() != current.line())) {
                rows.add(new DebugLine.Row(16L * i, current.file(), current.line()));
                written = current;
            }
        }
        return rows;
    }

    /**
     * A BSYNC, which carries the PTX line of the first instruction of its join: ptxas gives it the {@code .loc} in
     * effect at the last PTX instruction before the join's label instead, the line of the arm that falls into the
     * join (an arm whose code may be coalesced away, as an else arm's {@code mov.f32 %f5, %f1;} is), or no row of its
     * own when that is the branch line before it.
     */
    static boolean joinsBranches(CodeLine line) {
        return line.opcode().equals("BSYNC") && !line.guarded() && line.ptxLine() > 0;
    }

    /**
     * Whether the BSYNC at {@code i} carries the PTX line of code from above its region's branch: its PTX line is
     * above that of the nearest BSSY before it on the same barrier (which carries the branch's line), the first
     * instruction of its join being code jptxas moved there from before the branch (the {@code ld.const} of line 500
     * before a 64-bit division's two arms in matrix_free_device_matrix_vector_04, whose LDC jptxas places at the
     * join). The label search of {@link #joinsBranches} would find a label above the branch; ptxas's join carries the
     * line of the arm that falls into it, the row before, and the moved line has no code at the join (ptxas 13 reads
     * that word as an operand of its user at that user's line, sm_80 and sm_90), so the BSYNC continues the row
     * before.
     */
    static boolean joinsCodeFromAboveItsBranch(List<CodeLine> code, int i) {
        CodeLine sync = code.get(i);
        int barrier = sync.op().register(0, SlotKind.BAR);
        for (int k = i - 1; k >= 0; k--) {
            CodeLine c = code.get(k);
            if (c.mnemonic().equals("BSSY") && !c.guarded() && c.op().register(0, SlotKind.BAR) == barrier) {
                return c.ptxLine() > 0 && sync.ptxLine() < c.ptxLine();
            }
        }
        return false;
    }

    /**
     * A predicated move ({@code @P1 MOV R5, R24}, {@code @!P0 MOV R25, c[0x3][0xfc]}), a branch arm made
     * conditional: ptxas gives the moves it predicates in an arm the {@code .loc} in effect at the arm's last
     * instruction (before the label the branch skips to), so an earlier move's own line has no code there (checked
     * with ptxas 13 on hwt's and mcx_core's two-line arms: {@code mov.s32} at line 1232, {@code mov.f32} at 1233, both
     * predicated at 1233).
     */
    static boolean ifConvertedCopy(CodeLine line) {
        SassOp op = line.op();
        return op.guarded() && line.opcode().equals("MOV") && op.operandCount() == 2
                && line.ptxLine() > 0 && isRegister(op, 0, false);
    }

    /**
     * The PTX line of the branch around an arm made conditional when the register copy at {@code i} is the value the
     * arm overwrites ({@code mov.f32 %f49, %f13;}, then {@code @!%p2 bra L;} and the arm's {@code mul.rn.f32 %f49,
     * %f13, 0f00000000;}: {@code MOV R12, R9} before {@code @P0 FMUL R12, R9, 0}), else -1. ptxas gives such a copy the
     * branch's {@code .loc} (checked with ptxas 13 on mri-q's six sincos reductions: {@code IMAD.MOV.U32 R30, RZ, RZ,
     * R24} at the branch's line 1668 or 1774, the copy's own line 1698 or 75 without code there; mcx_core's
     * {@code MOV R4, R53} at the branch's 1480 before {@code @P4 IADD3 R4, R53, 0x1} of 1483). The copy is the first
     * of its block's instructions after it to touch the register that the guarded one writes.
     */
    static int copyBeforeArm(List<CodeLine> code, int i, PtxLabels labels, int open) {
        CodeLine copy = code.get(i);
        SassOp op = copy.op();
        if (op.guarded() || !copy.opcode().equals("MOV") || op.operandCount() != 2 || copy.ptxLine() <= 0
                || !isRegister(op, 0, false) || !isRegister(op, 1, true)) {
            return -1;
        }
        NextUse use = NextUse.inBlock(code, i, op.register(0, SlotKind.GPR), 1);
        if (use.kind() != NextUse.Kind.WRITE) {
            return -1;
        }
        CodeLine next = code.get(use.index());
        if (!next.guarded() || next.ptxLine() <= copy.ptxLine()) {
            return -1;
        }
        int branch = labels.branchBefore(next.ptxLine(), open);
        return branch > copy.ptxLine() ? branch : -1;
    }

    /**
     * The instruction that first reads the word a {@code MOV}/{@code LDC} of a {@code .const} variable
     * ({@code LDC R5, c[0x3][0x288]}) puts into a register, in the same block, when it has a PTX line, else -1. ptxas
     * reads the word as an operand of that reader or loads it (a {@code ULDC}) just before it, with the reader's line
     * (checked with ptxas 13: an {@code ld.const} at line 11 read by the {@code add} of line 13 is {@code IADD3 R5, R2,
     * c[0x3][0x4], RZ} on sm_80, {@code ULDC UR4, c[0x3][0x4]} at line 13 on sm_90; line 11 has no code).
     */
    static int constVariableReader(List<CodeLine> code, int i) {
        CodeLine load = code.get(i);
        SassOp op = load.op();
        if (op.guarded() || load.symbol() != null || op.operandCount() != 2 || !isRegister(op, 0, false)
                || !(load.opcode().equals("MOV") || load.opcode().startsWith("LDC"))
                || !bankOffset(op, 1, CONSTANT_VARIABLE_BANK)) {
            return -1;
        }
        NextUse use = NextUse.inBlock(code, i, op.register(0, SlotKind.GPR), load.opcode().endsWith(".64") ? 2 : 1);
        return use.kind() == NextUse.Kind.READ && code.get(use.index()).ptxLine() > 0 ? use.index() : -1;
    }

    /** The label lines of the PTX text (line numbers from 1), read from the text ptxas embeds, when first asked. */
    static final class PtxLabels {
        private static final java.util.regex.Pattern LABEL =
                java.util.regex.Pattern.compile("([$%A-Za-z_.][\\w$.%]*):\\s*(//.*)?");
        private static final java.util.regex.Pattern BRANCH_TARGET =
                java.util.regex.Pattern.compile("\\bbra(\\.uni)?\\s+([$%A-Za-z_.][\\w$.%]*)\\s*;");
        private static final java.util.regex.Pattern BRANCH =
                java.util.regex.Pattern.compile("\\s*@!?%\\w+\\s+bra(\\.uni)?\\s+[$%A-Za-z_.][\\w$.%]*\\s*;.*");
        private final byte[] text;
        private List<String> lines;
        private java.util.Set<String> targets;

        PtxLabels(byte[] text) {
            this.text = text;
        }

        /** The line of the nearest label below {@code line} and above the body's {@code close} brace, or -1. */
        int after(int line, int close) {
            read();
            for (int k = line + 1; k < Math.min(close, lines.size() + 1); k++) {
                if (LABEL.matcher(lines.get(k - 1)).matches()) {
                    return k;
                }
            }
            return -1;
        }

        /**
         * The line of the conditional branch ({@code @!%p2 bra $Lt_1_64002;}) nearest above {@code line} and below the
         * body's {@code open} brace, with no label between them, or -1.
         */
        int branchBefore(int line, int open) {
            read();
            for (int k = Math.min(line - 1, lines.size()); k > open; k--) {
                String text = lines.get(k - 1);
                if (LABEL.matcher(text).matches()) {
                    return -1;
                }
                if (BRANCH.matcher(text).matches()) {
                    return k;
                }
            }
            return -1;
        }

        private void read() {
            if (lines == null) {
                lines = List.of(new String(text, java.nio.charset.StandardCharsets.ISO_8859_1).split("\0", -1));
            }
        }

        /**
         * The line of the nearest label above {@code line} and below the body's {@code open} brace (the join's label
         * when {@code line} is its first instruction that is left, lines between having been coalesced away), or -1.
         */
        int before(int line, int open) {
            read();
            for (int k = Math.min(line - 1, lines.size()); k > open; k--) {
                java.util.regex.Matcher m = LABEL.matcher(lines.get(k - 1));
                if (m.matches() && branchTargets().contains(m.group(1))) {
                    return k;
                }
            }
            return -1;
        }

        /**
         * The label names some branch names ({@code bra L;}, {@code .branchtargets L1, L2;}). A label no branch names
         * ({@code $L__tmp5:}, which only {@code .loc} ranges and the debug info use) starts no block for ptxas, so a
         * join's label is looked for past it.
         */
        private java.util.Set<String> branchTargets() {
            if (targets == null) {
                java.util.Set<String> found = new java.util.HashSet<>();
                for (String text : lines) {
                    java.util.regex.Matcher b = BRANCH_TARGET.matcher(text);
                    if (b.find()) {
                        found.add(b.group(2));
                    }
                    int list = text.indexOf(".branchtargets");
                    if (list >= 0) {
                        for (String name : text.substring(list + ".branchtargets".length()).split("[,;\\s]+")) {
                            if (!name.isEmpty()) {
                                found.add(name);
                            }
                        }
                    }
                }
                targets = found;
            }
            return targets;
        }
    }

    /**
     * A constant put into a register ({@code MOV R28, 0x1}, {@code MOV R6, RZ}), a parameter read from the constant
     * bank ({@code MOV R8, c[0x0][0x168]}, what an {@code ld.param} or a {@code mov} of {@code %ntid} becomes) or a
     * register copy ({@code MOV R3, R2}: a PTX {@code mov} or a value carried around a loop): ptxas folds such a
     * {@code mov}/{@code ld.param} into the instructions that use the value (as a constant operand, a coalesced
     * register, or a copy it places at the use and gives the use's line), so its line has no code of its own there;
     * where jptxas keeps the instruction, it continues the row before it rather than annotate a line ptxas does not.
     * A {@code MOV} or {@code LDC} of a {@code .const} variable's word ({@code MOV R4, c[0x3][0x2b8]}, an
     * {@code ld.const}) too: ptxas reads the word as an operand of its users ({@code ISETP.GE.AND P0, PT, R31,
     * c[0x3][0x288], PT} on sm_80, a {@code ULDC} at the user's line on sm_90), so its own line has no code; one a
     * later instruction of its block reads takes that reader's line ({@link #constVariableReader}).
     * Not a predicated one ({@code @!P2 MOV R10, R11}), which is a branch arm made conditional, and ptxas keeps those
     * with their line; not a relocated value ({@code MOV R2, 32@lo(g)}).
     */
    static boolean materializesConstant(CodeLine line) {
        SassOp op = line.op();
        if (wordCopy(line)) {
            return true;
        }
        if (op.guarded() || line.symbol() != null || op.operandCount() != 2
                || !isRegister(op, 0, false) || op.register(0, SlotKind.GPR) == SlotKind.GPR.zeroValue()) {
            return false;
        }
        return switch (line.opcode()) {
            case "MOV" -> op.register(1, SlotKind.GPR) == SlotKind.GPR.zeroValue() || op.immediateSlot(1) >= 0
                    || isRegister(op, 1, true) || bankZeroOffset(op, 1) && !setsUpStack(line)
                    || bankOffset(op, 1, CONSTANT_VARIABLE_BANK);
            case "LDC", "LDC.64" -> bankZeroOffset(op, 1) && !setsUpStack(line)
                    || bankOffset(op, 1, CONSTANT_VARIABLE_BANK);
            default -> false;
        };
    }

    /**
     * A register copy in the form of a funnel shift by zero, {@code SHF.R.U32.HI R4, RZ, RZ, R5}: what jptxas emits for
     * the high word of a 64-bit value shifted right by 32 ({@code shr.u64 %rd5, %rd4, 32; cvt.u32.u64 %r2, %rd5;}),
     * which ptxas reads as the register's high half where it is used, with no instruction of its own (checked with
     * ptxas 13 {@code -lineinfo} and {@code nvdisasm -g}: the shift's line has no code). Continues the row before, as
     * the {@code MOV} copies of {@link #materializesConstant} do; not a predicated one.
     */
    static boolean wordCopy(CodeLine line) {
        SassOp op = line.op();
        int zero = (int) SlotKind.GPR.zeroValue();
        return !op.guarded() && line.symbol() == null && line.opcode().equals("SHF.R.U32.HI") && op.operandCount() == 4
                && isRegister(op, 0, false) && op.register(1, SlotKind.GPR) == zero
                && op.register(2, SlotKind.GPR) == zero && isRegister(op, 3, true);
    }

    /** Whether operand {@code k} is a general register other than RZ, alone or (with {@code reuse}) {@code .reuse}. */
    private static boolean isRegister(SassOp op, int k, boolean reuse) {
        SassOperands.Operand o = op.form().operands().operands().get(k);
        if (o.slots().size() != 1 || !o.before(0).isEmpty() || !(o.after(0).isEmpty() || reuse && o.after(0).equals(".reuse"))
                || !(op.form().slot(o.slots().get(0)) instanceof SassSlot.Field f) || f.kind() != SlotKind.GPR) {
            return false;
        }
        return op.value(o.slots().get(0)) != SlotKind.GPR.zeroValue();
    }

    /** Whether operand {@code k} is {@code c[0x0][0x168]}: bank 0 at an immediate offset. */
    private static boolean bankZeroOffset(SassOp op, int k) {
        return bankOffset(op, k, 0);
    }

    /** The constant bank that holds the module's {@code .const} variables ({@code c[0x3][0x2b8]}). */
    private static final int CONSTANT_VARIABLE_BANK = 3;

    /** Whether operand {@code k} is a word of constant bank {@code wanted} at an immediate offset. */
    private static boolean bankOffset(SassOp op, int k, int wanted) {
        SassOperands.Operand o = op.form().operands().operands().get(k);
        if (o.slots().size() != 2 || !o.texts().equals(List.of("c[", "][", "]"))) {
            return false;
        }
        int bank = o.slots().get(0);
        int offset = o.slots().get(1);
        return isImmediate(op, bank) && op.immediate(bank) == wanted && isImmediate(op, offset)
                && op.immediate(offset) >= 0;
    }

    private static boolean isImmediate(SassOp op, int slot) {
        return op.form().slot(slot) instanceof SassSlot.Field f ? f.kind() == SlotKind.HEX || f.kind() == SlotKind.SHEX
                : ((SassSlot.Literal) op.form().slot(slot)).text().startsWith("0x");
    }

    /** The stack set-up, {@code MOV R1, c[0x0][0x28]} ({@code LDC R1, c[0x0][0x28]} on sm_90, {@code c[0x0][0x37c]} from sm_100 on). */
    static boolean setsUpStack(CodeLine line) {
        SassOp op = line.op();
        return !op.guarded() && (line.opcode().equals("MOV") || line.opcode().equals("LDC"))
                && op.register(0, SlotKind.GPR) == 1 && op.operandCount() == 2 && bankZeroOffset(op, 1);
    }

    static List<DebugLine.Row> ptxRows(List<CodeLine> code, SourceLines.FunctionLines body, int file) {
        int last = -1;
        for (int i = 0; i < code.size(); i++) {
            if (code.get(i).ptxLine() > 0) {
                last = i;
            }
        }
        List<DebugLine.Row> rows = new ArrayList<>();
        int current = body.open();
        int written = -1;
        for (int i = 0; i < code.size(); i++) {
            if (i > 0 && code.get(i).ptxLine() > 0) {
                current = code.get(i).ptxLine();
            } else if (i > last) {
                current = body.close();
            }
            if (current != written) {
                rows.add(new DebugLine.Row(16L * i, file, current));
                written = current;
            }
        }
        return rows;
    }

    /**
     * A file entry as ptxas writes it: the timestamp and size the {@code .file} gives, else those of the file when it
     * exists on this machine (ptxas looks), else zero.
     */
    static DebugLine.File file(SourceLines.File f) {
        if (f.timestamp() >= 0) {
            return new DebugLine.File(f.path(), f.timestamp(), Math.max(0, f.size()));
        }
        try {
            Path p = Path.of(f.path());
            if (Files.isRegularFile(p)) {
                return new DebugLine.File(f.path(), Files.getLastModifiedTime(p).toMillis() / 1000, Files.size(p));
            }
        } catch (IOException | RuntimeException e) {
            // not a readable path on this machine: ptxas writes zeros then too
        }
        return new DebugLine.File(f.path(), 0, 0);
    }
}
