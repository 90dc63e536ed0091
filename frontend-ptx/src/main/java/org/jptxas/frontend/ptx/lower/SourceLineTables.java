package org.jptxas.frontend.ptx.lower;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.FileDirective;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LocDirective;
import org.jptxas.frontend.ptx.ast.ModuleItem;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.ori.ir.SourceLines;

/**
 * Collects a PTX module's {@link SourceLines}: the {@code .file} table, the {@code .loc} in effect at each
 * instruction's line (a {@code .loc} holds until the next one, within its function), each body's braces, and the PTX
 * text as ptxas 13 embeds it in {@code .nv_debug_ptx_txt}.
 */
public final class SourceLineTables {
    private SourceLineTables() {}

    public static SourceLines of(PtxModule module, String text) {
        List<SourceLines.File> files = new ArrayList<>();
        Map<String, SourceLines.FunctionLines> functions = new HashMap<>();
        // one line -> .loc map for the whole input: a function inlined into another brings its own lines along
        Map<Integer, SourceLines.Loc> locs = new HashMap<>();
        List<FunctionDecl> defined = new ArrayList<>();
        List<SourceLines.Loc> firsts = new ArrayList<>(); // each defined function's first .loc, or null
        for (ModuleItem item : module.items()) {
            if (item instanceof FileDirective f) {
                files.add(new SourceLines.File((int) f.index(), f.path(), f.timestamp(), f.size()));
            } else if (item instanceof FunctionDecl f && f.isDefinition()) {
                SourceLines.Loc[] state = {null, null}; // the current .loc, the body's first
                walk(f.body(), state, locs);
                defined.add(f);
                firsts.add(state[1]);
            }
        }
        Map<Integer, SourceLines.Loc> shared = new SourceLines.LineLocs(locs);
        for (int i = 0; i < defined.size(); i++) {
            FunctionDecl f = defined.get(i);
            functions.put(f.name(), new SourceLines.FunctionLines(f.body().pos().line(), f.body().end().line(),
                    firsts.get(i), shared));
        }
        byte[] raw = text.getBytes(StandardCharsets.ISO_8859_1);
        java.util.zip.Adler32 adler = new java.util.zip.Adler32();
        adler.update(raw);
        // ptxas 13 writes line tables for .loc without -lineinfo from PTX ISA 4.0 on (none for a 3.2 file)
        boolean asks = module.version().map(v -> v.times10() >= 40).orElse(true);
        return new SourceLines(files, functions, ptxText(text), adler.getValue(), asks);
    }

    private static void walk(Block block, SourceLines.Loc[] state, Map<Integer, SourceLines.Loc> locs) {
        for (Statement s : block.statements()) {
            if (s instanceof LocDirective l) {
                state[0] = new SourceLines.Loc((int) l.file(), (int) l.line(), (int) l.column());
                if (state[1] == null) {
                    state[1] = state[0];
                }
            } else if (s instanceof Instruction i && state[0] != null) {
                locs.put(i.pos().line(), state[0]);
            } else if (s instanceof Block b) {
                walk(b, state, locs);
            }
        }
    }

    /**
     * The PTX text as ptxas writes it into {@code .nv_debug_ptx_txt}: line for line (so PTX line numbers hold), each
     * ended by a NUL, without the trailing lines that end up empty, each line without its leading blanks (and the CR
     * of a CR LF), and emptied: lines holding only a comment, {@code .loc} and {@code .file} directives, and the data
     * inside {@code .section} bodies (their {@code .section} line and braces stay). A comment after code stays, as
     * ptxas keeps it.
     */
    static byte[] ptxText(String text) {
        List<String> lines = new ArrayList<>();
        boolean inSection = false;
        for (String raw : text.split("\n", -1)) {
            String line = (raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw).stripLeading();
            String code = line.strip();
            if (inSection) {
                if (code.startsWith("}")) {
                    inSection = false;
                } else if (!code.equals("{")) {
                    line = "";
                }
            } else if (code.startsWith(".section") && !code.contains("}")) {
                inSection = true;
            }
            if (line.startsWith("//") || directive(line, ".loc") || directive(line, ".file")) {
                line = "";
            }
            lines.add(line);
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (String line : lines) {
            out.writeBytes(line.getBytes(StandardCharsets.ISO_8859_1));
            out.write(0);
        }
        return out.toByteArray();
    }

    /** Whether {@code line} is the directive {@code name} ({@code .loc} but not {@code .local}). */
    private static boolean directive(String line, String name) {
        return line.startsWith(name) && (line.length() == name.length() || Character.isWhitespace(line.charAt(name.length())));
    }
}
