package org.jptxas.sass.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nvdisasm's text for arbitrary instruction words, illegal ones included. nvdisasm refuses a whole raw file when one
 * word is illegal and names only the first ({@code ... at address 0x0070}), so each refusal drops that word and
 * re-runs the rest; every run is cached ({@link OracleListings}), so a repeated probe costs no process start.
 */
public final class RawOracle {
    private RawOracle() {}

    private static final Pattern AT = Pattern.compile("at address 0x([0-9a-fA-F]+)");
    private static final int CHUNK = 1024;

    /** nvdisasm's normalized text of one word and the address it was read at (branch targets depend on it). */
    public record Read(String text, long address) {}

    /** Per word {lo, hi}: what nvdisasm printed, or null if nvdisasm refused the word. */
    public static Read[] read(List<long[]> words, String sm) {
        Read[] out = new Read[words.size()];
        List<int[]> chunks = new ArrayList<>();
        for (int s = 0; s < words.size(); s += CHUNK) {
            chunks.add(new int[] {s, Math.min(words.size(), s + CHUNK)});
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int[] c : chunks) {
                fs.add(pool.submit(() -> readChunk(words, c[0], c[1], sm, out)));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdown();
        }
        return out;
    }

    private static void readChunk(List<long[]> words, int from, int to, String sm, Read[] out) {
        // Words still in the file, by original index; an illegal word is replaced by a NOP-free gap: removed.
        List<Integer> live = new ArrayList<>();
        for (int i = from; i < to; i++) {
            live.add(i);
        }
        while (!live.isEmpty()) {
            byte[] bytes = new byte[live.size() * 16];
            for (int p = 0; p < live.size(); p++) {
                long[] w = words.get(live.get(p));
                put(bytes, 16 * p, w[0]);
                put(bytes, 16 * p + 8, w[1]);
            }
            try {
                NvdisasmListing l = OracleListings.raw(bytes, sm);
                for (NvdisasmListing.Section s : l.sections()) {
                    for (NvdisasmListing.Line line : s.lines()) {
                        int p = (int) (line.address() / 16);
                        if (p < live.size()) {
                            out[live.get(p)] = new Read(line.text(), line.address());
                        }
                    }
                }
                return;
            } catch (OracleListings.NvdisasmException e) {
                Matcher m = AT.matcher(e.getMessage());
                if (!m.find()) {
                    return; // refused without naming a word: leave the rest unread
                }
                int p = (int) (Long.parseLong(m.group(1), 16) / 16);
                if (p >= live.size()) {
                    return;
                }
                live.remove(p);
            }
        }
    }

    private static void put(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
