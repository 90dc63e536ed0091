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
 * @param retiredFromSm the lowest target for which later versions drop the form, 0 = all: ptxas 13 still takes
 *     vote and shfl without {@code .sync} in PTX 9.0 for a {@code .target} below sm_70
 * @param namesInstruction a modifier gate whose diagnostic names the instruction too, as ptxas words some
 *     ("Modifier '.and' on 'mma' requires ...") and not others ("Modifier '.async' requires ...")
 * @param subject what ptxas names in a word gate's messages when not the modifier or type ("Feature '.abs'",
 *     "Feature 'scopes on atomic operations'", "Instruction 'atom.add.f64.global'"), empty otherwise
 */
public record Gate(String word, int minSm, int minPtx, List<String> targets, int maxPtx, int retiredFromSm,
        boolean namesInstruction, String subject) {
    public Gate {
        Objects.requireNonNull(word, "word");
        Objects.requireNonNull(subject, "subject");
        targets = List.copyOf(targets);
        if (minSm < 0 || minPtx < 0) {
            throw new IllegalArgumentException("negative gate");
        }
    }

    public Gate(String word, int minSm, int minPtx, List<String> targets, int maxPtx) {
        this(word, minSm, minPtx, targets, maxPtx, 0, false, "");
    }
}
