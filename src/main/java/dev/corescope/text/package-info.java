/**
 * Text for people: escaping of strings that came from files, trees or other processes before
 * they reach a terminal or a page, and (as it grows) the text document that lays itself out at
 * a width. Every other package prints through these; none keeps an escaper of its own.
 *
 * <pre>{@code
 * String name = otherProcessName();            // text from anyone: a file, a tree, a process
 * System.out.println(Terminal.escape(name));   // a control character shows as an escape, not as an effect
 * }</pre>
 *
 * @since 0.1.0
 */
package dev.corescope.text;
