package org.jptxas.tables.ptx;

import java.util.List;
import java.util.Objects;

/**
 * A minimum PTX version and target for a whole form ({@code word} empty) or for forms written with one modifier or
 * type word ({@code bf16} on {@code add}: "Feature 'add.bf16' requires .target sm_90 or higher").
 *
 * @param minSm the lowest SM number, 0 = any
 * @param minPtx the lowest {@code .version} times ten, 0 = any
 * @param targets when not empty, the only targets that have it (architecture-specific features such as wgmma on
 *     {@code sm_90a}), by name
 */
public record Gate(String word, int minSm, int minPtx, List<String> targets) {
    public Gate {
        Objects.requireNonNull(word, "word");
        targets = List.copyOf(targets);
        if (minSm < 0 || minPtx < 0) {
            throw new IllegalArgumentException("negative gate");
        }
    }
}
