package dev.corescope.cli;

/** {@code --format}: text for people, json for scripts (and svg where a command draws). */
enum OutputFormat { text, json, svg }
