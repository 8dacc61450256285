/**
 * Text for people: escaping of strings that came from files, trees or other processes before
 * they reach a terminal or a page, and (as it grows) the text document that lays itself out at
 * a width. Every other package prints through these; none keeps an escaper of its own.
 */
package dev.corescope.text;
