package dev.corescope.bench.cpupri;

import jdk.internal.vm.annotation.Contended;

/**
 * {@code struct cpupri_vec} with {@code @Contended} on each field: HotSpot puts each field in a
 * group of its own, padded by {@code -XX:ContendedPaddingWidth} (128 bytes by default). Without
 * {@code -XX:-RestrictContended} the annotation is ignored outside the JDK and this class is
 * laid out like {@code HeapVecs.Packed}; {@code HeapLayouts} shows which happened.
 *
 * <p>This file is compiled by its own compiler execution (see pom.xml): the annotation lives in
 * a package {@code java.base} does not export, which {@code --release 25} cannot see.
 */
final class ContendedVec {

    @Contended
    int count;

    @Contended
    long[] mask;
}
