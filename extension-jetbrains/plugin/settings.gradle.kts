// The IDE glue of the wavehost plugin. Needs the IntelliJ Platform (downloaded by the IntelliJ
// Platform Gradle Plugin from JetBrains' repositories), so it is built by users and CI elsewhere,
// not by this repository's tests. The core it uses is built with Maven: ../pom.xml.
rootProject.name = "wavehost-jetbrains-plugin"

pluginManagement {
    repositories {
        gradlePluginPortal()
        mavenCentral()
    }
}
