package org.jptxas.cubin.info;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.cubin.tables.CubinTables;

/**
 * The .nv.info.&lt;function&gt; records ptxas 13 writes for a function, in its order ({@code cubin/nvinfo-rules.json}).
 */
public final class FunctionInfo {
    private FunctionInfo() {}

    /** CUDA_API_VERSION ptxas 13.0 writes (130). */
    public static final int CUDA_API_VERSION_13_0 = 130;

    static final int SW_WAR = 0x36;
    static final int CUDA_API_VERSION = 0x37;
    static final int SW2861232_WAR = 0x35;
    static final int CBANK_PARAM_SIZE = 0x19;
    static final int MAXREG_COUNT = 0x1b;
    static final int NUM_BARRIERS = 0x4c;
    static final int MERCURY_ISA_VERSION = 0x5f;
    static final int VRC_CTA_INIT_COUNT = 0x4a;
    static final int SPARSE_MMA_MASK = 0x50;
    static final int EXIT_INSTR_OFFSETS = 0x1c;
    static final int CRS_STACK_SIZE = 0x1e;

    /**
     * The records for {@code f} on SM {@code sm}.
     *
     * @param paramBase        offset of the parameters in constant bank 0 (0x160 sm_7x/8x, 0x210 sm_90, 0x380 sm_100+)
     * @param constant0Symbol  symbol index of {@code .nv.constant0.<f>} (PARAM_CBANK)
     */
    public static List<Attribute> records(int sm, FunctionFacts f, int paramBase, int constant0Symbol, int apiVersion) {
        return records(sm, f, paramBase, constant0Symbol, apiVersion, false);
    }

    /**
     * As {@link #records(int, FunctionFacts, int, int, int)}; {@code abiV7} writes what CUDA 12 ptxas writes instead:
     * no Mercury records (MERCURY_ISA_VERSION, 0x4a, SPARSE_MMA_MASK) and no NUM_BARRIERS, whose count lives in the
     * code section's {@code sh_flags} under ABI v7.
     */
    public static List<Attribute> records(int sm, FunctionFacts f, int paramBase, int constant0Symbol, int apiVersion,
                                          boolean abiV7) {
        CubinTables.NvInfoRules rules = CubinTables.nvInfoRules(sm);
        List<Attribute> out = new ArrayList<>();
        if (rules.swWar() >= 0) {
            out.add(new Attribute.Words(SW_WAR, new int[] {rules.swWar()}));
        }
        out.add(new Attribute.Words(CUDA_API_VERSION, new int[] {apiVersion}));
        if (rules.sw2861232War()) {
            out.add(new Attribute.Flag(SW2861232_WAR));
        }
        if (!f.params().isEmpty() || f.paramBytes() > 0) {
            out.add(new Attribute.ParamCbank(constant0Symbol, paramBase, f.paramBytes()));
            out.add(new Attribute.Inline(CBANK_PARAM_SIZE, EiFormat.HVAL, f.paramBytes()));
        }
        List<FunctionFacts.Param> params = new ArrayList<>(f.params());
        params.sort(Comparator.comparingInt(FunctionFacts.Param::ordinal).reversed());
        for (FunctionFacts.Param p : params) {
            out.add(new Attribute.KParamInfo(0, p.ordinal(), p.offset(), p.logAlignment(), p.space(), 0x1f, false, p.size()));
        }
        if (rules.sparseMmaMask() && !abiV7) {
            out.add(new Attribute.Inline(SPARSE_MMA_MASK, EiFormat.HVAL, 0));
        }
        if (f.entry()) {
            out.add(new Attribute.Inline(MAXREG_COUNT, EiFormat.HVAL, f.maxRegCount()));
        }
        if (f.barriers() > 0 && !abiV7) {
            out.add(new Attribute.Inline(NUM_BARRIERS, EiFormat.BVAL, f.barriers()));
        }
        if (!abiV7) {
            out.add(new Attribute.Inline(MERCURY_ISA_VERSION, EiFormat.HVAL, rules.mercuryIsaVersion()));
        }
        if (rules.vrcCtaInitCount() && !abiV7) {
            out.add(new Attribute.Inline(VRC_CTA_INIT_COUNT, EiFormat.BVAL, 0));
        }
        if (f.exitOffsets().length > 0) {
            out.add(new Attribute.Words(EXIT_INSTR_OFFSETS, f.exitOffsets()));
        }
        if (f.crsStackSize().isPresent()) {
            out.add(new Attribute.Words(CRS_STACK_SIZE, new int[] {f.crsStackSize().getAsInt()}));
        }
        out.addAll(f.extraAttributes());
        // A stable sort keeps KPARAM_INFO in reverse ordinal order and repeated records in the order given.
        List<Attribute> sorted = new ArrayList<>(out);
        sorted.sort(Comparator.comparingInt(a -> rules.rank(a.code())));
        return sorted;
    }
}
