package org.jptxas.simulator.exec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jptxas.ori.target.DriverConstants;
import org.jptxas.simulator.launch.Dim3;

/**
 * The cluster words of constant bank 0 on sm_90 and later, where ptxas's code reads them ({@link DriverConstants}):
 * the explicit-cluster flag, the cluster shape and its f32 reciprocals, the number of clusters, the blocks per
 * cluster. A launch without {@code cluster_dims} is a grid of one-block clusters (flag 0), as
 * {@code %is_explicit_cluster} reports it.
 * <p>The reciprocal is the emulator's choice (the driver's value is not documented): {@code 1/n} rounded up to the
 * next float when {@code n} is no power of two, so that {@code trunc(ctaid * rcp)} is {@code ctaid / n} for every
 * block index below 2^16 (tested).
 */
public final class ClusterConstants {
    private ClusterConstants() {
    }

    /**
     * Writes the cluster words of layout {@code dc} into {@code bank} (large enough for them): the flag always, the
     * shape words where the layout has them at fixed offsets (not on sm_100+, whose code indexes them).
     */
    static void fill(byte[] bank, DriverConstants dc, Dim3 grid, Dim3 cluster, boolean explicit) {
        ByteBuffer b = ByteBuffer.wrap(bank).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(dc.explicitCluster(), explicit ? 1 : 0);
        if (!dc.clusterShapeKnown()) {
            return;
        }
        int[] shape = {cluster.x(), cluster.y(), cluster.z()};
        int[] extent = {grid.x(), grid.y(), grid.z()};
        for (int d = 0; d < 3; d++) {
            b.putInt(dc.clusterShape(d), shape[d]);
            b.putFloat(dc.clusterShapeReciprocal(d), reciprocal(shape[d]));
            b.putInt(dc.clusterCount(d), extent[d] / shape[d]);
        }
        b.putInt(dc.clusterNctarank(), shape[0] * shape[1] * shape[2]);
    }

    /** {@code 1/n} as the emulator's driver stores it (see the class comment). */
    public static float reciprocal(int n) {
        float r = 1f / n;
        return Integer.bitCount(n) == 1 ? r : Math.nextUp(r);
    }
}
