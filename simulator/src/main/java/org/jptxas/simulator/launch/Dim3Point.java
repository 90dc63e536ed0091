package org.jptxas.simulator.launch;

/** A point inside a {@link Dim3} extent (a thread index or block index); components start at 0. */
public record Dim3Point(int x, int y, int z) {
    public static final Dim3Point ORIGIN = new Dim3Point(0, 0, 0);

    @Override
    public String toString() {
        return "(" + x + "," + y + "," + z + ")";
    }
}
