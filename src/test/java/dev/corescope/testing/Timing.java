package dev.corescope.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that measures time, CPU time or allocation: kept out of the default suite, which must
 * pass on a loaded machine (STYLE.md 15), and run on a quiet one with
 * {@code ./mvnw -B -pl build/tool test -Dgroups=timing -Dcorescope.timing=true}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("timing")
@EnabledIfSystemProperty(named = "corescope.timing", matches = "true",
        disabledReason = "measures time or allocation: run with -Dgroups=timing -Dcorescope.timing=true")
public @interface Timing {
}
