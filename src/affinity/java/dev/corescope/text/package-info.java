/**
 * Text for people: escaping of strings from files, trees or other processes before they reach a
 * terminal ({@link Terminal}) or a page ({@link Markup}), and the document that lays itself out
 * at a width ({@link TextDoc}). Every other package prints through these; none keeps an escaper
 * of its own.
 */
package dev.corescope.text;
