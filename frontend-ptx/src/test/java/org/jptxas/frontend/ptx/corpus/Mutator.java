package org.jptxas.frontend.ptx.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Deterministic token-level mutations of PTX text: deletions, duplications, swaps, truncations, stray bytes. */
final class Mutator {
    private static final Pattern TOKEN = Pattern.compile("\\s+|[A-Za-z_$%.][A-Za-z0-9_$.:]*|0[xXfFdDbB][0-9A-Fa-f]+|[0-9]+|.",
            Pattern.DOTALL);

    private final String text;
    private final List<int[]> tokens = new ArrayList<>();

    Mutator(String text) {
        this.text = text;
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            if (!Character.isWhitespace(text.charAt(m.start()))) {
                tokens.add(new int[] {m.start(), m.end()});
            }
        }
    }

    record Mutation(String description, String text) {
    }

    Mutation mutate(Random random) {
        if (tokens.size() < 2) {
            return new Mutation("unchanged", text);
        }
        int i = random.nextInt(tokens.size() - 1);
        int[] t = tokens.get(i);
        int[] u = tokens.get(i + 1);
        String tok = text.substring(t[0], t[1]);
        switch (random.nextInt(5)) {
            case 0:
                return new Mutation("delete token " + i + " '" + tok + "'", text.substring(0, t[0]) + text.substring(t[1]));
            case 1:
                return new Mutation("duplicate token " + i + " '" + tok + "'",
                        text.substring(0, t[1]) + " " + tok + text.substring(t[1]));
            case 2:
                return new Mutation("swap tokens " + i + ", " + (i + 1), text.substring(0, t[0]) + text.substring(u[0], u[1])
                        + text.substring(t[1], u[0]) + tok + text.substring(u[1]));
            case 3:
                int cut = t[0] + random.nextInt(Math.max(1, t[1] - t[0]));
                return new Mutation("truncate at " + cut, text.substring(0, cut));
            default:
                char c = (char) random.nextInt(256);
                return new Mutation("insert byte " + (int) c + " before token " + i,
                        text.substring(0, t[0]) + c + text.substring(t[0]));
        }
    }
}
