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

    /** Names the step that starts now (a long one shows at once what runs); by default nothing. */
    default void begin(String detail) {
    }

    void start(String task, int total);

    /** Called once per step, when it has finished, with what it was. */
    void step(String detail);
}
