package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * A memory layout's size, as {@code layouts[]} in the results file, with its rows in the
 * style of JOL (offset, size, field; padding as its own rows).
 *
 * @param name       e.g. {@code packed}
 * @param sizeBytes  total size
 * @param cacheLines {@code sizeBytes} in cache lines of {@code lineSize}
 * @param lineSize   the cache line size used
 * @param params     what the layout depends on ({@code offstack}, {@code nrCpus}, ...)
 * @param rows       offset/size/field rows; may be empty
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Layout(String name, long sizeBytes, long cacheLines, int lineSize, Map<String, Object> params, List<Row> rows) {

    /** One row: {@code kind} is {@code field} or {@code padding}. */
    public record Row(long offset, long size, String kind, String name) {
    }
}
