package org.jptxas.simulator.exec;

import org.jptxas.simulator.launch.Dim3Point;

/** One thread of a launch: its block and its thread index within the block. */
public record ThreadRef(Dim3Point block, Dim3Point thread) {
    @Override
    public String toString() {
        return "block " + block + " thread " + thread;
    }
}
