package org.jptxas.frontend.ptx.lower;

import java.util.List;
import java.util.OptionalInt;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.check.SpecialRegister;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.DriverConstants;

/**
 * The thread-block cluster special registers (sm_90) as ptxas 13 reads them: {@code %cluster_ctarank} is
 * {@code S2R SR_CgaCtaId}; the cluster shape, cluster count and cluster size come from the driver's constant bank
 * ({@link DriverConstants}); {@code %clusterid} divides {@code %ctaid} by the shape through the f32 reciprocal the
 * driver stores ({@code F2I.U32.TRUNC.NTZ(I2FP.F32.U32(ctaid) * rcp)}), and {@code %cluster_ctaid} is the remainder
 * ({@code ctaid - clusterid * shape}); {@code %is_explicit_cluster} compares {@code c[0x0][0x140]} with 1.
 * Values are computed unguarded (fresh registers), as the other special registers are.
 */
final class ClusterRegisters {
    private ClusterRegisters() {
    }

    /** Whether {@code sr} is one of the registers {@link #read} serves. */
    static boolean serves(SpecialRegister sr) {
        return switch (sr) {
            case CLUSTERID, NCLUSTERID, CLUSTER_CTAID, CLUSTER_NCTAID, CLUSTER_CTARANK, CLUSTER_NCTARANK,
                    IS_EXPLICIT_CLUSTER -> true;
            default -> false;
        };
    }

    /**
     * Whether {@code sr} can be read on a target whose driver constants are {@code driver}: the rank and the
     * explicit-cluster flag always, the others where the cluster shape sits at a fixed offset.
     */
    static boolean readable(DriverConstants driver, SpecialRegister sr) {
        return sr == SpecialRegister.CLUSTER_CTARANK || sr == SpecialRegister.IS_EXPLICIT_CLUSTER
                || driver.clusterShapeKnown();
    }

    /** The value of {@code sr} (component {@code dim} of the vector ones): a register, or a constant when allowed. */
    static Operand read(LoweringContext cx, SpecialRegister sr, int dim, boolean constantOk) {
        String axis = "XYZ".substring(dim, dim + 1);
        switch (sr) {
            case NCLUSTERID:
                return constant(cx, cx.profile().driver().clusterCount(dim), constantOk);
            case CLUSTER_NCTAID:
                return constant(cx, cx.profile().driver().clusterShape(dim), constantOk);
            case CLUSTER_NCTARANK:
                return constant(cx, cx.profile().driver().clusterNctarank(), constantOk);
            case CLUSTER_CTARANK:
                return s2r(cx, "SR_CgaCtaId");
            case IS_EXPLICIT_CLUSTER: {
                Reg flag = (Reg) constant(cx, cx.profile().driver().explicitCluster(), false);
                Reg p = cx.newReg(RegFile.P, 1);
                cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND"), List.of(p, Reg.PT),
                        List.of(Src.of(flag), Src.of(Imm.ofInt(1)), Src.of(Reg.PT)));
                return p;
            }
            case CLUSTERID:
                return clusterId(cx, s2r(cx, "SR_CTAID." + axis), dim);
            case CLUSTER_CTAID: {
                Reg ctaid = s2r(cx, "SR_CTAID." + axis);
                Reg id = clusterId(cx, ctaid, dim);
                Reg negated = cx.newReg(RegFile.R, 1);
                cx.emitUnguarded("IADD3", List.of(), List.of(negated),
                        List.of(Src.of(id).negated(), Src.of(Reg.RZ), Src.of(Reg.RZ)));
                Reg shape = (Reg) constant(cx, cx.profile().driver().clusterShape(dim), false);
                Reg d = cx.newReg(RegFile.R, 1);
                cx.emitUnguarded("IMAD", List.of(), List.of(d), List.of(Src.of(shape), Src.of(negated), Src.of(ctaid)));
                return d;
            }
            default:
                throw new IllegalArgumentException("not a cluster register: " + sr);
        }
    }

    /** The kernel's {@code .reqnctapercluster}, {@code .explicitcluster} and {@code .maxclusterrank}. */
    static FunctionAttrs.Cluster directives(List<TuningDirective> tuning) {
        List<Integer> ctas = List.of();
        boolean explicit = false;
        OptionalInt maxRank = OptionalInt.empty();
        for (TuningDirective t : tuning) {
            switch (t.kind()) {
                case REQNCTAPERCLUSTER -> {
                    List<Integer> v = new java.util.ArrayList<>(t.values().stream().map(Long::intValue).toList());
                    while (v.size() < 3) {
                        v.add(1); // ptxas records all three extents
                    }
                    ctas = v;
                }
                case EXPLICITCLUSTER -> explicit = true;
                case MAXCLUSTERRANK -> maxRank = t.values().isEmpty() ? maxRank : OptionalInt.of(t.values().get(0).intValue());
                default -> { }
            }
        }
        return new FunctionAttrs.Cluster(ctas, explicit, maxRank);
    }

    private static Reg clusterId(LoweringContext cx, Reg ctaid, int dim) {
        Reg f = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("I2F", List.of("U32"), List.of(f), List.of(Src.of(ctaid)));
        Reg scaled = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("FMUL", List.of(), List.of(scaled),
                List.of(Src.of(f), Src.of(CBank.of(0, cx.profile().driver().clusterShapeReciprocal(dim)))));
        Reg id = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("F2I", List.of("U32", "TRUNC", "NTZ"), List.of(id), List.of(Src.of(scaled)));
        return id;
    }

    private static Operand constant(LoweringContext cx, int offset, boolean constantOk) {
        CBank c = CBank.of(0, offset);
        if (constantOk) {
            return c;
        }
        Reg r = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("MOV", List.of(), List.of(r), List.of(Src.of(c)));
        return r;
    }

    private static Reg s2r(LoweringContext cx, String name) {
        Reg r = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("S2R", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
    }
}
