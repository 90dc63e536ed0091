package org.jptxas.cubin;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where everything sits in the file: the offset of each section's bytes, of the section and program header tables,
 * the file size, and any non-zero bytes in the gaps between them (ptxas leaves zeros; other producers may not). With
 * the sections and headers this fixes every byte of the file, which is what makes read-then-write byte-identical.
 * {@link LayoutPlanner} computes the layout ptxas would choose for a new cubin.
 */
public record Layout(long[] sectionOffsets, long shoff, long phoff, long fileSize, List<GapBytes> gapBytes) {
    /** Bytes found in a gap between structures, kept so that nothing is lost. */
    public record GapBytes(long offset, byte[] bytes) {
        public GapBytes {
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    public Layout {
        sectionOffsets = sectionOffsets.clone();
        gapBytes = List.copyOf(gapBytes);
    }

    @Override
    public long[] sectionOffsets() {
        return sectionOffsets.clone();
    }

    public long sectionOffset(int index) {
        return sectionOffsets[index];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Layout l && Arrays.equals(sectionOffsets, l.sectionOffsets) && shoff == l.shoff
                && phoff == l.phoff && fileSize == l.fileSize && gapBytes.size() == l.gapBytes.size()
                && gapBytesEqual(gapBytes, l.gapBytes);
    }

    private static boolean gapBytesEqual(List<GapBytes> a, List<GapBytes> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).offset() != b.get(i).offset() || !Arrays.equals(a.get(i).bytes, b.get(i).bytes)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(sectionOffsets), shoff, phoff, fileSize);
    }

    @Override
    public String toString() {
        return "Layout[sections=" + Arrays.toString(sectionOffsets) + ", shoff=" + shoff + ", phoff=" + phoff
                + ", size=" + fileSize + ", gaps=" + gapBytes.size() + "]";
    }
}
