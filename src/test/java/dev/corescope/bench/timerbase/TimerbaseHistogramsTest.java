package dev.corescope.bench.timerbase;

import dev.corescope.report.Histogram;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The saved latency histograms as the page's bar charts. */
class TimerbaseHistogramsTest {

    @Test
    void aHistogramsCaptionFitsTheChartWidthEvenWithAMillionSamplesAndAnOverflow() {
        Histogram h = new Histogram("timerbase", "before", "java", 20, new long[] {0, 997875, 1328, 515, 6, 176},
                1_000_000, 1_000_000, 30.0, 60.0, 4_550_655.0);
        String svg = TimerbaseHistograms.svg(h);
        Matcher width = Pattern.compile("<svg [^>]*width=\"(\\d+)\"").matcher(svg);
        assertTrue(width.find(), svg);
        // 11-px sans-serif: about 5.7 px per character in Chromium (the old one-line caption was cut at ~63 of 83)
        int maxChars = (int) (Integer.parseInt(width.group(1)) / 6.0);
        Matcher text = Pattern.compile("<text [^>]*>([^<]*)</text>").matcher(svg);
        int captions = 0;
        while (text.find()) {
            if (text.group(1).contains("samples") || text.group(1).contains("beyond")) captions++;
            if (!text.group(0).contains("font-size=\"13\"")) {
                assertTrue(text.group(1).length() <= maxChars, "wider than the chart: " + text.group(1));
            }
        }
        assertEquals(2, captions, svg);
        assertTrue(svg.contains("1,000,000 samples, p50 30"), svg);
        assertTrue(svg.contains("max 4550655 ns, 1,000,000 beyond the last bucket"), svg);
    }
}
