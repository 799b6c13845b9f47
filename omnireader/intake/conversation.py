"""Conversations -> tasks: chat messages, the tool trajectories inside them, and their
attachments; a chat export's conversations each on their own."""

from __future__ import annotations

from omnireader.errors import EmptyInputError
from omnireader.intake.openai_shapes import ChatLog, check_tool_pairing
from omnireader.intake.parts import route_parts
from omnireader.intake.tasks import FileRoutes, Task, task
from omnireader.models import Message
from omnireader.options import ReadOptions
from omnireader.payloads import Conversation, Trajectory

__all__ = ["route_conversation", "chat_log_tasks"]


def chat_log_tasks(
    logs: list[ChatLog], options: ReadOptions, label: str, files: FileRoutes
) -> list[Task]:
    """Each conversation of a file (an export may hold hundreds) routed on its own."""
    tasks: list[Task] = []
    for k, log in enumerate(logs):
        where = label if len(logs) == 1 else f"{label}#{k + 1}"
        tasks.extend(route_conversation(log.messages, options, files, label=where, title=log.title))
    if not tasks:
        raise EmptyInputError(label, "the chat export holds no message with text")
    return tasks


def route_conversation(
    messages: list[Message],
    options: ReadOptions,
    files: FileRoutes,
    label: str = "<conversation>",
    title: str | None = None,
) -> list[Task]:
    """Split a conversation into chat windows, tool trajectories and attachments.

    A trajectory is the user request before an assistant turn with ``tool_calls``, those
    calls, their ``role: tool`` results and the assistant's final answer. The request and
    the answer also stay in the chat, where they are conversation too.
    """
    check_tool_pairing(messages, label)
    chat_msgs: list[Message] = []
    tasks: list[Task] = []
    i = 0
    while i < len(messages):
        m = messages[i]
        if m.role == "assistant" and m.tool_calls:
            request = next((p for p in reversed(chat_msgs) if p.role == "user"), None)
            steps: list[Message] = [request] if request else []
            while i < len(messages) and (
                messages[i].role == "tool"
                or (messages[i].role == "assistant" and messages[i].tool_calls)
            ):
                steps.append(messages[i])
                i += 1
            if i < len(messages) and messages[i].role == "assistant":
                steps.append(messages[i])  # the final answer
                chat_msgs.append(messages[i])
                i += 1
            tasks.append(task("tool", Trajectory(messages=steps), f"{label}#tool"))
            continue
        if m.role == "tool":  # a result whose call was in an earlier, separate input
            tasks.append(task("tool", Trajectory(messages=[m]), f"{label}#tool"))
        else:
            chat_msgs.append(m)
            if isinstance(m.content, list):
                tasks.extend(route_parts(m.content, options, context=m, files=files))
        i += 1
    if chat_msgs and (any(m.text().strip() for m in chat_msgs) or not tasks):
        convo = Conversation(messages=chat_msgs, title=title)
        tasks.insert(0, task("chat", convo, label))
    return tasks
