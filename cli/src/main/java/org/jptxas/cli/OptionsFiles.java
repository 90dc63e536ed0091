package org.jptxas.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Expands ptxas's {@code --options-file F} / {@code -optf F} (comma-separated files) into their options. */
final class OptionsFiles {
    private static final int MAX_DEPTH = 8;

    private OptionsFiles() {}

    static String[] expand(String[] args, Path workDir) {
        List<String> out = new ArrayList<>();
        expand(List.of(args), workDir, out, 0);
        return out.toArray(String[]::new);
    }

    private static void expand(List<String> args, Path workDir, List<String> out, int depth) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String files = null;
            if (a.equals("--options-file") || a.equals("-optf")) {
                if (i + 1 >= args.size()) {
                    throw new JptxasCommand.Fatal("argument expected after '" + a + "'");
                }
                files = args.get(++i);
            } else if (a.startsWith("--options-file=") || a.startsWith("-optf=")) {
                files = a.substring(a.indexOf('=') + 1);
            }
            if (files == null) {
                out.add(a);
                continue;
            }
            if (depth >= MAX_DEPTH) {
                throw new JptxasCommand.Fatal("Options files nested too deeply");
            }
            for (String f : files.split(",")) {
                String text;
                try {
                    text = Files.readString(workDir.resolve(f), StandardCharsets.UTF_8);
                } catch (IOException | RuntimeException e) {
                    throw new JptxasCommand.Fatal("Options file '" + f + "' could not be opened");
                }
                expand(tokenize(text), workDir, out, depth + 1);
            }
        }
    }

    /** Splits on white space; single or double quotes group words. */
    static List<String> tokenize(String text) {
        List<String> tokens = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inToken = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    tokens.add(cur.toString());
                    cur.setLength(0);
                    inToken = false;
                }
            } else {
                cur.append(c);
                inToken = true;
            }
        }
        if (inToken) {
            tokens.add(cur.toString());
        }
        return tokens;
    }
}
