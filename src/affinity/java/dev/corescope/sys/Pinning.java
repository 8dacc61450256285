package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;

/**
 * A thread pinned to some CPUs until {@link #close()}, which puts back the mask the thread had
 * before. Made by {@code affinity.ThreadAffinity.pin} (and {@code affinity.Reservation.pin},
 * which pins to the reserved CPU); use it in try-with-resources on the thread that pinned:
 *
 * <pre>{@code
 * try (Pinning p = ThreadAffinity.pin(3)) {
 *     // this thread runs on CPU 3 only
 * }   // and here on p.previous() again
 * }</pre>
 *
 * <p>Pins of one thread may be closed in any order, and the thread ends where it should. Each
 * pin stands for "this thread on these CPUs until I close": while pins are open the thread runs
 * on the CPUs of the latest one; closing the latest puts back the mask from before it, and
 * closing an earlier one (an outer pin before an inner one, or a harness's per-iteration pin
 * around a benchmark's own longer one) changes nothing now but hands its saved mask to the pin
 * made after it, so when that one closes the thread gets the mask it had before both.
 *
 * <p>Virtual threads cannot be pinned (the pin refuses them with an
 * {@link UnsupportedOperationException}): a virtual thread runs on whichever carrier thread the
 * scheduler gives it, so pinning it would pin that carrier, and the mask would stay behind on
 * the carrier (and on the other virtual threads it runs) after the virtual thread moved on. Pin
 * a platform thread instead, e.g. one made by {@code affinity.PinningThreadFactory}.
 *
 * <p><b>Not thread-safe</b>, and not to be kept: the handle {@code ThreadAffinity.pin} returns
 * is the thread's own and is handed out again by its next pin once closed, so do not use it
 * (or close it again) after {@code close()}. Implementations other than the library's own are
 * for tests.
 *
 * @since 0.1.0
 */
public interface Pinning extends AutoCloseable {

    /**
     * {@return the mask the thread had just before this pin, the one {@link #close()} puts back (unless an
     * earlier pin was closed first and handed its own over, see the class comment): the CPUs, never null;
     * valid until {@code close()}}
     */
    CpuMask previous();

    /** {@return the CPUs this pin put the thread on, never null or empty} */
    CpuMask pinned();

    /**
     * Ends this pin: the latest open pin of the thread puts back the mask from before it; an
     * earlier one leaves the thread where the later pins put it and hands its saved mask on (see
     * the class comment). Closing a closed pinning does nothing.
     *
     * @throws IllegalStateException when called on another thread than the one that pinned
     * @throws NativeException when the kernel refuses the mask back ({@code sched_setaffinity})
     */
    @Override
    void close();
}
