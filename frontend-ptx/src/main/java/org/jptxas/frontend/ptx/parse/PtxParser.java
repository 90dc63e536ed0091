package org.jptxas.frontend.ptx.parse;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.diag.Severity;

/**
 * Parses PTX text into the module model. Never throws for bad input: every problem becomes a positioned diagnostic
 * in ptxas's wording. Stateless and thread-safe; each call uses its own JavaCC parser instance.
 */
public final class PtxParser {
    private PtxParser() {}

    public static ParseResult parse(String fileName, String text) {
        int eofLine = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                eofLine++;
            }
        }
        ParseSupport support = new ParseSupport(fileName, eofLine);
        PtxGrammar grammar = new PtxGrammar(new StringCharStream(text));
        grammar.s = support;
        PtxModule module = null;
        List<Diagnostic> diagnostics = new ArrayList<>();
        try {
            module = grammar.Module();
        } catch (AbortParse e) {
            // already reported
        } catch (ParseException e) {
            support.syntaxError(e);
        } catch (StackOverflowError e) {
            diagnostics.add(new Diagnostic(Severity.FATAL, fileName, currentLine(grammar),
                    "Parsing error: input nested too deeply"));
        } catch (TokenMgrError e) {
            diagnostics.add(new Diagnostic(Severity.FATAL, fileName, currentLine(grammar),
                    "Parsing error: " + e.getMessage()));
        }
        List<Diagnostic> all = new ArrayList<>(support.diagnostics());
        all.addAll(diagnostics);
        if (all.isEmpty() && module != null && module.items().isEmpty()) {
            // an empty file, or blank lines and comments only: ptxas reports it at the end of the input
            all.add(new Diagnostic(Severity.FATAL, fileName, eofLine,
                    "Missing .version directive at start of file '" + fileName + "'"));
        }
        return new ParseResult(module == null ? new PtxModule(List.of()) : module, all);
    }

    private static int currentLine(PtxGrammar g) {
        Token t = g.token;
        return t == null ? 1 : Math.max(1, t.beginLine);
    }
}
