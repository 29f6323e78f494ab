package dev.wavehost.jetbrains.core.protocol

enum class Direction { CLIENT_TO_SERVER, SERVER_TO_CLIENT }

enum class Kind { REQUEST, NOTIFICATION }

/** How a method relates to chat sessions (the table's `session`); the server routes by it. */
enum class SessionRole { OPENS, CLOSES, SCOPED }

/** One row of the method table (ProtocolTable.kt is generated from the server's schema). */
data class ProtocolMethod(
    val name: String,
    val direction: Direction,
    val kind: Kind,
    /** What it does to the pages attached to a session (null: not about one session); the server decides by it. */
    val session: SessionRole?,
    /** Only the shell sends it (workspace trust), never a page: the relay refuses it from pages. */
    val shellOnly: Boolean = false,
)

/** The allow-lists a shell derives from the table. */
object Protocol {
    private val byName = ProtocolTable.METHODS.associateBy { it.name }

    fun method(name: String): ProtocolMethod? = byName[name]

    /** Requests a page may send (relayed to the server); anything else, shell-only ones included, is refused. */
    fun isPageRequest(name: String): Boolean =
        byName[name]?.let { it.direction == Direction.CLIENT_TO_SERVER && it.kind == Kind.REQUEST && !it.shellOnly } == true

    fun isPageNotification(name: String): Boolean =
        byName[name]?.let { it.direction == Direction.CLIENT_TO_SERVER && it.kind == Kind.NOTIFICATION && !it.shellOnly } == true

    /** Server notifications delivered to pages. */
    fun isServerNotification(name: String): Boolean =
        byName[name]?.let { it.direction == Direction.SERVER_TO_CLIENT && it.kind == Kind.NOTIFICATION } == true

    /** Server requests a page answers (e.g. a permission question). */
    fun isServerRequest(name: String): Boolean =
        byName[name]?.let { it.direction == Direction.SERVER_TO_CLIENT && it.kind == Kind.REQUEST } == true
}
