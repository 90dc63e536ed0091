package org.jptxas.ori.ir;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What a function declares beyond its code, as the front end resolves it.
 *
 * @param params       kernel parameters (in constant bank 0 from the target's parameter base) or, for a
 *                     {@code .func}, its parameters in call order
 * @param paramBytes   size of the kernel parameter block (CBANK_PARAM_SIZE); 0 for device functions
 * @param results      a device function's return parameters (empty for kernels)
 * @param sharedBytes  static shared memory the kernel uses (its own and the module-scope {@code .shared} variables
 *                     it references, laid out by the front end); dynamic {@code extern .shared} starts after it
 * @param localBytes   local memory the PTX declares ({@code .local} arrays) before any spilling
 * @param maxnreg      {@code .maxnreg}
 * @param maxntid      {@code .maxntid} (empty when absent)
 * @param reqntid      {@code .reqntid} (empty when absent)
 * @param minnctapersm {@code .minnctapersm}
 * @param callees      names of the functions this one calls
 * @param sharedAlignment the largest alignment of the kernel's shared variables, dynamic ones included (0: none)
 * @param textureSlots the bound texture references ({@code .texref}) a kernel reads, in the order of their header
 *                     slots: word k after the parameter block (aligned to 4) in constant bank 0
 * @param cluster      the kernel's thread-block cluster directives (sm_90)
 */
public record FunctionAttrs(List<Param> params, int paramBytes, List<Param> results, long sharedBytes,
                            long localBytes, OptionalInt maxnreg, List<Integer> maxntid, List<Integer> reqntid,
                            OptionalInt minnctapersm, List<String> callees, int sharedAlignment,
                            List<String> textureSlots, Cluster cluster) {
    /**
     * {@code .reqnctapercluster x, y, z} (empty when absent; missing extents are 1), {@code .explicitcluster},
     * {@code .maxclusterrank n}: the cubin's CTA_PER_CLUSTER, EXPLICIT_CLUSTER and MAX_CLUSTER_RANK records.
     */
    public record Cluster(List<Integer> ctasPerCluster, boolean explicit, OptionalInt maxRank) {
        public static final Cluster NONE = new Cluster(List.of(), false, OptionalInt.empty());

        public Cluster {
            ctasPerCluster = List.copyOf(ctasPerCluster);
            Objects.requireNonNull(maxRank, "maxRank");
        }
    }

    /** Attributes without cluster directives. */
    public FunctionAttrs(List<Param> params, int paramBytes, List<Param> results, long sharedBytes, long localBytes,
                         OptionalInt maxnreg, List<Integer> maxntid, List<Integer> reqntid, OptionalInt minnctapersm,
                         List<String> callees, int sharedAlignment, List<String> textureSlots) {
        this(params, paramBytes, results, sharedBytes, localBytes, maxnreg, maxntid, reqntid, minnctapersm, callees,
                sharedAlignment, textureSlots, Cluster.NONE);
    }

    /** These attributes with {@code c} as the cluster directives. */
    public FunctionAttrs withCluster(Cluster c) {
        return new FunctionAttrs(params, paramBytes, results, sharedBytes, localBytes, maxnreg, maxntid, reqntid,
                minnctapersm, callees, sharedAlignment, textureSlots, c);
    }

    /** One parameter: ordinal, byte offset in its block, size and alignment in bytes, and its PTX type name. */
    public record Param(int ordinal, String name, int offset, int size, int alignment, String ptxType) {
        public Param {
            Objects.requireNonNull(name, "name");
        }
    }

    public static final FunctionAttrs NONE = new FunctionAttrs(List.of(), 0, List.of(), 0, 0, OptionalInt.empty(),
            List.of(), List.of(), OptionalInt.empty(), List.of());

    /** These attributes with {@code slots} as the texture slots. */
    public FunctionAttrs withTextureSlots(List<String> slots) {
        return new FunctionAttrs(params, paramBytes, results, sharedBytes, localBytes, maxnreg, maxntid, reqntid,
                minnctapersm, callees, sharedAlignment, slots, cluster);
    }

    /** Attributes without texture slots. */
    public FunctionAttrs(List<Param> params, int paramBytes, List<Param> results, long sharedBytes, long localBytes,
                         OptionalInt maxnreg, List<Integer> maxntid, List<Integer> reqntid, OptionalInt minnctapersm,
                         List<String> callees, int sharedAlignment) {
        this(params, paramBytes, results, sharedBytes, localBytes, maxnreg, maxntid, reqntid, minnctapersm, callees,
                sharedAlignment, List.of());
    }

    /** Attributes without shared variables' alignment (hand-built functions). */
    public FunctionAttrs(List<Param> params, int paramBytes, List<Param> results, long sharedBytes, long localBytes,
                         OptionalInt maxnreg, List<Integer> maxntid, List<Integer> reqntid, OptionalInt minnctapersm,
                         List<String> callees) {
        this(params, paramBytes, results, sharedBytes, localBytes, maxnreg, maxntid, reqntid, minnctapersm, callees, 0);
    }

    public FunctionAttrs {
        params = List.copyOf(params);
        results = List.copyOf(results);
        maxntid = List.copyOf(maxntid);
        reqntid = List.copyOf(reqntid);
        callees = List.copyOf(callees);
        textureSlots = List.copyOf(textureSlots);
        Objects.requireNonNull(maxnreg, "maxnreg");
        Objects.requireNonNull(minnctapersm, "minnctapersm");
        Objects.requireNonNull(cluster, "cluster");
    }
}
