package dev.corescope.bench.cpupri;

/**
 * {@code struct cpupri_vec} as Java objects: an {@code int count} and a {@code long[] mask}
 * (the reference standing for {@code cpumask_var_t}, a pointer to a separately allocated
 * bitmap). Three shapes, whose real field offsets {@link HeapLayouts} reads with JOL:
 * <ul>
 *   <li>{@link Packed}: the two fields side by side, as the JVM lays them out;</li>
 *   <li>{@link PaddedMask}: padded by hand in Agrona's style. HotSpot may reorder the fields
 *       of one class but always places a superclass's fields before a subclass's, so each
 *       padding block is its own class: count, then 64 bytes, then mask, then 64 bytes;</li>
 *   <li>{@code ContendedVec} (in {@code src/contended/java}): {@code @Contended} on both
 *       fields, which the JVM pads only with {@code -XX:-RestrictContended}.</li>
 * </ul>
 */
final class HeapVecs {

    private HeapVecs() {
    }

    static final class Packed {
        int count;
        long[] mask;
    }

    abstract static class PaddedCount {
        int count;
    }

    abstract static class PaddedGap extends PaddedCount {
        long p01, p02, p03, p04, p05, p06, p07, p08;
    }

    abstract static class PaddedMaskField extends PaddedGap {
        long[] mask;
    }

    /** Padding after the mask too, so the next object's count cannot share the mask's line. */
    static final class PaddedMask extends PaddedMaskField {
        long q01, q02, q03, q04, q05, q06, q07, q08;
    }
}
