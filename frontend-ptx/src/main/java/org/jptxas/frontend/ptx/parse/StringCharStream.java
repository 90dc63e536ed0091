package org.jptxas.frontend.ptx.parse;

import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

/**
 * The lexer's input: a whole PTX text held as a string. Unlike JavaCC's SimpleCharStream it never copies its buffer
 * (a 10 MB token costs linear time), and it computes line and column from a table of line starts on demand instead
 * of tracking them per character. Columns count a tab as one character (ptxas reports lines only).
 */
final class StringCharStream implements CharStream {
    private static final EOFException END = new EOFException("end of PTX input");

    private final String text;
    private final int[] lineStarts;
    private int pos;
    private int tokenBegin;

    StringCharStream(String text) {
        this.text = text;
        int[] starts = new int[64];
        int n = 0;
        starts[n++] = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                }
                starts[n++] = i + 1;
            }
        }
        this.lineStarts = Arrays.copyOf(starts, n);
    }

    @Override
    public char readChar() throws IOException {
        if (pos >= text.length()) {
            throw END; // like SimpleCharStream, a failed read does not advance

        }
        return text.charAt(pos++);
    }

    @Override
    public char BeginToken() throws IOException {
        tokenBegin = pos;
        return readChar();
    }

    @Override
    public void backup(int amount) {
        pos -= amount;
    }

    @Override
    public String GetImage() {
        return text.substring(tokenBegin, Math.min(pos, text.length()));
    }

    @Override
    public char[] GetSuffix(int len) {
        int end = Math.min(pos, text.length());
        return text.substring(end - len, end).toCharArray();
    }

    @Override
    public void Done() {
    }

    /** The last line looked up: tokens come in order, so most lookups hit it or the next line. */
    private int lineHint;

    private int lineIndex(int offset) {
        int h = lineHint;
        if (offset >= lineStarts[h] && (h + 1 == lineStarts.length || offset < lineStarts[h + 1])) {
            return h;
        }
        int i = Arrays.binarySearch(lineStarts, offset);
        lineHint = i >= 0 ? i : -i - 2;
        return lineHint;
    }

    private int lineOf(int offset) {
        return lineIndex(Math.max(0, offset)) + 1;
    }

    private int columnOf(int offset) {
        int o = Math.max(0, offset);
        return o - lineStarts[lineIndex(o)] + 1;
    }

    @Override
    public int getBeginLine() {
        return lineOf(tokenBegin);
    }

    @Override
    public int getBeginColumn() {
        return columnOf(tokenBegin);
    }

    @Override
    public int getEndLine() {
        return lineOf(Math.min(pos, text.length()) - 1);
    }

    @Override
    public int getEndColumn() {
        return columnOf(Math.min(pos, text.length()) - 1);
    }

    @Override
    @Deprecated
    public int getColumn() {
        return getEndColumn();
    }

    @Override
    @Deprecated
    public int getLine() {
        return getEndLine();
    }

    @Override
    public void setTabSize(int i) {
    }

    @Override
    public int getTabSize() {
        return 1;
    }

    @Override
    public boolean getTrackLineColumn() {
        return true;
    }

    @Override
    public void setTrackLineColumn(boolean trackLineColumn) {
    }
}
