package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.lower.MemoryOrdering.Scope;
import org.jptxas.frontend.ptx.lower.MemoryOrdering.Semantics;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code atom} and {@code red} in the global, shared and generic spaces, as ptxas 13 -O3 emits them:
 * <ul>
 *   <li>global: {@code ATOMG.E.<op>[.<type>].STRONG.<scope> PT, Rd, [Ra.64+off], Rb[, Rc]} and
 *       {@code RED.E.<op>[.<type>].STRONG.<scope> [Ra.64+off], Rb} (sm_90 spells the latter {@code REDG});</li>
 *   <li>shared: {@code ATOMS.<op>[.<type>] Rd, [Ra+off], Rb[, Rc]} ({@code red.shared} into RZ); operations
 *       ATOMS lacks (f32/f64 add, 64-bit add/min/max/and/or/xor) become ptxas's compare-and-swap loop
 *       {@code LDS; <op>; ATOMS.CAST.SPIN; ISETP.EQ.U32.AND P, flag, 1; @!P BRA loop};</li>
 *   <li>generic: {@code ATOM.E...}; f32/f64/64-bit integer adds report in their predicate whether the address was
 *       global, and fall back, like ptxas, to a compare-and-swap loop for the other windows.</li>
 * </ul>
 * Type modifiers as nvdisasm prints them: none for u32/b32, {@code S32}, {@code 64} (u64/b64), {@code S64},
 * {@code F32.FTZ.RN}, {@code F64.RN}, {@code F16x2.RN}, {@code BF16x2.RN}. Scope modifiers: {@code STRONG.GPU}
 * (default and .gpu), {@code STRONG.SM} (.cta; sm_75 prints {@code STRONG.CTA}), {@code STRONG.SYS}; release and
 * acquire semantics add the fences of {@link MemoryOrdering}.
 */
@AutoService(InstructionLowerer.class)
public final class AtomicLowerer implements InstructionLowerer {
    private static final List<String> OPERATIONS =
            List.of("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas");

    @Override
    public Set<String> opcodes() {
        return Set.of("atom", "red");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        boolean red = insn.opcode().equals("red");
        String op = SyncOperands.first(insn, null, OPERATIONS.toArray(String[]::new));
        PtxType type = SyncOperands.type(insn);
        if (op == null || type == null) {
            throw cx.unsupported("no operation or type");
        }
        if (SyncOperands.hasAny(insn, "v2", "v4", "v8")) {
            VectorAtomics.lower(insn, cx, red, op, type);
            return;
        }
        if (ClusterMemory.applies(insn)) {
            ClusterMemory.lower(insn, cx, this);
            return;
        }
        List<String> typeMods = typeModifiers(op, type);
        boolean halfAdd = op.equals("add") && (type == PtxType.F16 || type == PtxType.BF16) && insn.hasModifier("noftz");
        boolean halfCas = op.equals("cas") && type == PtxType.B16;
        if (typeMods == null && !halfAdd && !halfCas) {
            throw cx.unsupported(op + "." + type.ptxName() + " atomics");
        }
        Space space = insn.hasModifier("global") ? Space.GLOBAL
                : SyncOperands.hasAny(insn, "shared", "shared::cta") ? Space.SHARED : Space.GENERIC;

        List<Operand> ops = insn.operands();
        int i = 0;
        Operand dstOperand = red ? null : ops.get(i++);
        Operand.Address addrOperand = (Operand.Address) ops.get(i++);
        int comps = type.sizeBytes() == 8 ? 2 : 1;
        PtxType valueType = type;
        Reg b = SyncOperands.register(cx, ops.get(i++), valueType);
        Reg c = op.equals("cas") ? SyncOperands.register(cx, ops.get(i++), valueType) : null;
        boolean cacheHint = insn.modifiers().stream().anyMatch(m -> m.startsWith("L2::") && m.contains("cache_hint"));
        // ptxas refuses cas with a cache hint (no ATOM.CAS form names a descriptor on sm_80): the policy is dropped
        Operand policyOperand = cacheHint && !op.equals("cas") && i < ops.size() ? ops.get(i) : null;
        Addr addr = cx.address(addrOperand, space == Space.SHARED ? StateSpace.SHARED : StateSpace.GLOBAL);
        Reg d = dstOperand != null ? cx.dst(dstOperand, valueType)
                : space == Space.GLOBAL ? null : cx.newReg(RegFile.R, comps); // red: no result (ATOMS needs one)

        Scope scope = MemoryOrdering.scope(insn);
        Semantics sem = MemoryOrdering.semantics(insn);
        if (MemoryOrdering.releases(sem)) {
            MemoryOrdering.releaseFence(cx, scope);
        }
        if (halfAdd || halfCas) {
            if (addr.uniformBase() != null) {
                throw cx.unsupported(op + " atomics on 16 bits with a uniform address");
            }
            String where = space.name().toLowerCase(java.util.Locale.ROOT);
            if (halfCas) {
                HalfAtomics.cas(cx, where, addr, b, c, d);
            } else {
                HalfAtomics.add(cx, where, addr, b, d, type == PtxType.BF16);
            }
            if (!red && MemoryOrdering.acquires(sem)) {
                MemoryOrdering.acquireFence(cx, scope);
            }
            return;
        }
        // .L2::cache_hint on a global or generic access: the policy in a uniform pair that the access names as its
        // memory descriptor, as for ld/st (ptxas: R2UR UR8, R4; R2UR UR9, R5; ATOM.E.ADD... desc[UR8][R2.64], R9)
        Reg policy = policyOperand != null && space != Space.SHARED
                ? MemoryLowerer.uniformPolicy(cx, policyOperand) : null;
        switch (space) {
            case GLOBAL -> {
                List<String> mods = mods(op, typeMods, scope, true);
                if (red) {
                    cx.emit("RED", mods, List.of(), withPolicy(List.of(Src.of(addr), Src.of(b)), policy));
                } else {
                    cx.emit("ATOMG", mods, List.of(Reg.PT, d), withPolicy(sources(addr, b, c), policy));
                }
            }
            case SHARED -> {
                if (sharedNeedsLoop(op, type)) {
                    sharedCasLoop(cx, op, type, addr, b, d);
                } else {
                    List<String> mods = new ArrayList<>();
                    mods.add(op.toUpperCase());
                    mods.addAll(typeMods);
                    cx.emit("ATOMS", mods, List.of(red ? Reg.RZ : d), sources(addr, b, c));
                }
            }
            case GENERIC -> {
                List<String> mods = mods(op, typeMods, scope, true);
                // ptxas checks the result predicate of f32/f64/u64 adds and finishes non-global addresses itself
                if (op.equals("add") && (type == PtxType.F32 || type == PtxType.F64 || type == PtxType.U64
                        || type == PtxType.S64 || type == PtxType.F16X2 || type == PtxType.BF16X2)) {
                    // the policy is not passed here: the emulator faults on the predicate-returning ATOM that names
                    // it (red.add.L2::cache_hint.f64 on sm_90), so these adds keep ptxas's code without the hint
                    genericFloatAdd(cx, mods, type, addr, b, d, null);
                } else {
                    cx.emit("ATOM", mods, List.of(Reg.PT, red ? Reg.RZ : d), withPolicy(sources(addr, b, c), policy));
                }
            }
            default -> throw new IllegalStateException();
        }
        if (!red && MemoryOrdering.acquires(sem)) {
            MemoryOrdering.acquireFence(cx, scope);
        }
    }

    private enum Space { GLOBAL, SHARED, GENERIC }

    private static List<Src> sources(Addr addr, Reg b, Reg c) {
        return c == null ? List.of(Src.of(addr), Src.of(b)) : List.of(Src.of(addr), Src.of(b), Src.of(c));
    }

    private static List<Src> withPolicy(List<Src> sources, Reg policy) {
        if (policy == null) {
            return sources;
        }
        List<Src> all = new ArrayList<>(sources);
        all.add(Src.of(policy));
        return all;
    }

    private static List<String> mods(String op, List<String> typeMods, Scope scope, boolean wide) {
        List<String> mods = new ArrayList<>();
        if (wide) {
            mods.add("E");
        }
        mods.add(op.toUpperCase());
        mods.addAll(typeMods);
        mods.add("STRONG");
        mods.add(scope.atomic);
        return mods;
    }

    private static boolean isFloat(PtxType t) {
        return t == PtxType.F32 || t == PtxType.F64 || t == PtxType.F16X2 || t == PtxType.BF16X2;
    }

    /** The type modifiers of {@code op} on {@code type}, or null for combinations jptxas does not lower. */
    static List<String> typeModifiers(String op, PtxType type) {
        switch (op) {
            case "add" -> {
                return switch (type) {
                    case U32 -> List.of();
                    case S32 -> List.of("S32");
                    case U64, S64 -> List.of("64");
                    case F32 -> List.of("F32", "FTZ", "RN");
                    case F64 -> List.of("F64", "RN");
                    case F16X2 -> List.of("F16x2", "RN");
                    case BF16X2 -> List.of("BF16x2", "RN");
                    default -> null;
                };
            }
            case "min", "max" -> {
                return switch (type) {
                    case U32 -> List.of();
                    case S32 -> List.of("S32");
                    case U64 -> List.of("64");
                    case S64 -> List.of("S64");
                    default -> null;
                };
            }
            case "inc", "dec" -> {
                return type == PtxType.U32 ? List.of() : null;
            }
            case "and", "or", "xor", "exch", "cas" -> {
                return switch (type) {
                    case B32, U32, S32 -> List.of();
                    case B64, U64, S64 -> List.of("64");
                    case B128 -> op.equals("exch") || op.equals("cas") ? List.of("128") : null; // sm_90
                    default -> null;
                };
            }
            default -> {
                return null;
            }
        }
    }

    /** Operations ATOMS has no instruction for, done with a compare-and-swap loop. */
    private static boolean sharedNeedsLoop(String op, PtxType type) {
        if (op.equals("exch") || op.equals("cas")) {
            return false;
        }
        return type.sizeBytes() == 8 || isFloat(type);
    }

    /**
     * ptxas's shared-memory loop: {@code loop: LDS old; new = old <op> b; ATOMS.CAST.SPIN flag, [a], old, new;
     * ISETP.EQ.U32.AND P, PT, flag, 1, PT; @!P BRA loop}; the atomic's result is the old value.
     */
    private static void sharedCasLoop(LoweringContext cx, String op, PtxType type, Addr addr, Reg b, Reg d)
            throws CompilationException {
        boolean wide = type.sizeBytes() == 8;
        boolean supported = op.equals("add") ? type == PtxType.F32 || type == PtxType.F16X2 || type == PtxType.BF16X2
                || wide
                : wide && !isFloat(type) && List.of("min", "max", "and", "or", "xor").contains(op);
        if (!supported) {
            throw cx.unsupported(op + "." + type.ptxName() + " on shared memory");
        }
        BasicBlock done = cx.branchAroundGuard();
        BasicBlock loop = cx.newBlock();
        cx.startBlock(loop);
        cx.emit("LDS", wide ? List.of("64") : List.of(), List.of(d), List.of(Src.of(addr)));
        Reg next = op.equals("add") ? add(cx, type, d, b) : combine64(cx, op, type, d, b);
        Reg flag = cx.newReg(RegFile.R, wide ? 2 : 1);
        cx.emit("ATOMS", wide ? List.of("CAST", "SPIN", "64") : List.of("CAST", "SPIN"), List.of(flag),
                List.of(Src.of(addr), Src.of(d), Src.of(next)));
        Reg stored = equal(cx, flag, null, wide, true);
        branchBackUnless(cx, stored, loop);
        cx.startBlock(done);
    }

    /**
     * Generic floating-point add: {@code ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU P, Rd, [a], b} sets P when the address
     * was global and the add is done; otherwise (a shared-window address) a compare-and-swap loop on the generic
     * address finishes it. ptxas splits that case further with QSPC into an ATOMS.CAST.SPIN loop on the shared
     * window and a plain load/add/store for local addresses (undefined for atomics in PTX).
     */
    private static void genericFloatAdd(LoweringContext cx, List<String> mods, PtxType type, Addr addr, Reg b, Reg d,
            Reg policy) {
        boolean wide = type.sizeBytes() == 8;
        BasicBlock done = cx.branchAroundGuard();
        Reg handled = cx.newReg(RegFile.P, 1);
        cx.emit("ATOM", mods, List.of(handled, d), withPolicy(List.of(Src.of(addr), Src.of(b)), policy));
        cx.emit("BRA", List.of(), List.of(), List.of(Src.of(done.ref()))).setGuard(new Guard(handled, false));
        BasicBlock loop = cx.newBlock();
        cx.startBlock(loop);
        cx.emit("LD", wide ? List.of("E", "64") : List.of("E"), List.of(d), List.of(Src.of(addr)));
        Reg next = add(cx, type, d, b);
        Reg seen = cx.newReg(RegFile.R, wide ? 2 : 1);
        cx.emit("ATOM", wide ? List.of("E", "CAS", "64", "STRONG", "GPU") : List.of("E", "CAS", "STRONG", "GPU"),
                List.of(Reg.PT, seen), List.of(Src.of(addr), Src.of(d), Src.of(next)));
        Reg same = equal(cx, seen, d, wide, false);
        branchBackUnless(cx, same, loop);
        cx.startBlock(done);
    }

    /** {@code old + b} in {@code type}: HADD2, FADD, DADD, or a 64-bit integer add on the halves. */
    private static Reg add(LoweringContext cx, PtxType type, Reg old, Reg b) {
        if (type == PtxType.F16X2 || type == PtxType.BF16X2) { // lane-wise, rounded to nearest, no flush (.noftz)
            Reg next = cx.newReg(RegFile.R, 1);
            cx.emitUnguarded("HADD2", type == PtxType.BF16X2 ? List.of("BF16_V2") : List.of(), List.of(next),
                    List.of(Src.of(old), Src.of(b)));
            return next;
        }
        if (type == PtxType.F32) {
            Reg next = cx.newReg(RegFile.R, 1);
            cx.emitUnguarded("FADD", List.of(), List.of(next), List.of(Src.of(old), Src.of(b)));
            return next;
        }
        Reg next = cx.newReg(RegFile.R, 2);
        if (type == PtxType.F64) {
            cx.emitUnguarded("DADD", List.of(), List.of(next), List.of(Src.of(b), Src.of(old)));
            return next;
        }
        Reg carry = cx.newReg(RegFile.P, 1);
        cx.emitUnguarded("IADD3", List.of(), List.of(next.component(0), carry, Reg.PT),
                List.of(Src.of(old.component(0)), Src.of(b.component(0)), Src.of(Reg.RZ)));
        cx.emitUnguarded("IADD3", List.of("X"), List.of(next.component(1), Reg.PT, Reg.PT),
                List.of(Src.of(old.component(1)), Src.of(b.component(1)), Src.of(Reg.RZ), Src.of(carry),
                        Src.of(Reg.PT).inverted()));
        return next;
    }

    /**
     * {@code old <op> b} on 64-bit integers, on the halves: min/max as a chained compare
     * ({@code ISETP.LT/GT.U32.AND} low, {@code ISETP.LT/GT[.U32].AND.EX} high) and two SELs; and/or/xor as two LOP3s.
     */
    private static Reg combine64(LoweringContext cx, String op, PtxType type, Reg old, Reg b) {
        Reg next = cx.newReg(RegFile.R, 2);
        if (op.equals("min") || op.equals("max")) {
            String cmp = op.equals("min") ? "LT" : "GT";
            Reg p = cx.newReg(RegFile.P, 1);
            cx.emitUnguarded("ISETP", List.of(cmp, "U32", "AND"), List.of(p, Reg.PT),
                    List.of(Src.of(old.component(0)), Src.of(b.component(0)), Src.of(Reg.PT)));
            cx.emitUnguarded("ISETP", type == PtxType.S64 ? List.of(cmp, "AND", "EX") : List.of(cmp, "U32", "AND", "EX"),
                    List.of(p, Reg.PT), List.of(Src.of(old.component(1)), Src.of(b.component(1)), Src.of(Reg.PT),
                            Src.of(p)));
            for (int c = 0; c < 2; c++) {
                cx.emitUnguarded("SEL", List.of(), List.of(next.component(c)),
                        List.of(Src.of(old.component(c)), Src.of(b.component(c)), Src.of(p)));
            }
            return next;
        }
        int lut = switch (op) {
            case "and" -> 0xc0;
            case "or" -> 0xfc;
            default -> 0x3c;
        };
        for (int c = 0; c < 2; c++) {
            cx.emitUnguarded("LOP3", List.of("LUT"), List.of(Reg.PT, next.component(c)), List.of(Src.of(old.component(c)),
                    Src.of(b.component(c)), Src.of(Reg.RZ), Src.of(new Imm(lut)), Src.of(Reg.PT).inverted()));
        }
        return next;
    }

    /**
     * A predicate that {@code a} equals {@code b} (or the constant 1 when {@code againstOne}):
     * {@code ISETP.EQ.U32.AND}, chained for 64 bits with {@code ISETP.EQ.U32.AND.EX} on the high halves.
     */
    private static Reg equal(LoweringContext cx, Reg a, Reg b, boolean wide, boolean againstOne) {
        Reg p = cx.newReg(RegFile.P, 1);
        Src lo = againstOne ? Src.of(new Imm(1)) : Src.of(wide ? b.component(0) : b);
        cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND"), List.of(p, Reg.PT),
                List.of(Src.of(wide ? a.component(0) : a), lo, Src.of(Reg.PT)));
        if (wide) {
            Src hi = againstOne ? Src.of(Reg.RZ) : Src.of(b.component(1));
            cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND", "EX"), List.of(p, Reg.PT),
                    List.of(Src.of(a.component(1)), hi, Src.of(Reg.PT), Src.of(p)));
        }
        return p;
    }

    private static void branchBackUnless(LoweringContext cx, Reg p, BasicBlock loop) {
        cx.emitUnguarded("BRA", List.of(), List.of(), List.of(Src.of(loop.ref()))).setGuard(new Guard(p, true));
    }
}
