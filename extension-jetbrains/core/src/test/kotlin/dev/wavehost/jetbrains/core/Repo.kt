package dev.wavehost.jetbrains.core

import java.nio.file.Path

/** The repository this module lives in (its .venv, the webview, the other modules' sources). */
val REPO: Path = Path.of(System.getProperty("wavehost.repo") ?: "../..").toAbsolutePath().normalize()
val PYTHON: Path = REPO.resolve(".venv/bin/python")
