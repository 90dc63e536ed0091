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
 * @param maxPtx when not 0, the highest {@code .version} times ten that still has the form: later versions do not
 *     know it at all (vote without {@code .sync}, mad.f32 without rounding)
 * @param namesInstruction a modifier gate whose diagnostic names the instruction too, as ptxas words some
 *     ("Modifier '.and' on 'mma' requires ...") and not others ("Modifier '.async' requires ...")
 * @param asFeature a modifier gate that ptxas words as a feature ("Feature '.abs' requires ...")
 */
public record Gate(String word, int minSm, int minPtx, List<String> targets, int maxPtx, boolean namesInstruction,
        boolean asFeature) {
    public Gate {
        Objects.requireNonNull(word, "word");
        targets = List.copyOf(targets);
        if (minSm < 0 || minPtx < 0) {
            throw new IllegalArgumentException("negative gate");
        }
    }

    public Gate(String word, int minSm, int minPtx, List<String> targets, int maxPtx) {
        this(word, minSm, minPtx, targets, maxPtx, false, false);
    }
}
