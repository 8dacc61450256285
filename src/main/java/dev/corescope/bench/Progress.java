package dev.corescope.bench;

/**
 * Progress of a long run, for a bar on stderr. {@link #start} names a task of {@code total}
 * steps; {@link #step} is called once per step with what just finished.
 */
public interface Progress {

    Progress NONE = new Progress() {
        @Override
        public void start(String task, int total) {
        }

        @Override
        public void step(String detail) {
        }
    };

    void start(String task, int total);

    void step(String detail);
}
