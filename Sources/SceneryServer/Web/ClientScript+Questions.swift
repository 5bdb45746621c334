extension ClientScript {
    /// Confirmations as a real dialog, asked once per action across servers: a question the
    /// server asks holds up an action (its key comes with it), and a server that goes away
    /// while it waits for the answer is asked for by the next one.
    static let questions = #"""
          // --- Confirmations: a real dialog, keyboard accessible; Esc cancels.
          // The questions asked, by the key of the action each holds up. A server that goes
          // away takes its question with it; the page sends the action again, and the next
          // server asks again: the open dialog becomes that question (the person answers
          // once), and an answer given while the asking server was gone answers it.
          const questions = new Map();
          function ask(message) {
            const kept = message.action ? questions.get(message.action) : undefined;
            if (kept) {
              kept.question = message.question;
              kept.socket = socket;
              if (kept.answer !== undefined) sendAnswer(kept);
              return;
            }
            const entry = { question: message.question, socket, answer: undefined, dialog: null };
            const dialog = element("dialog", { "aria-labelledby": "scenery-confirm-title" });
            dialog.appendChild(element("h2", { id: "scenery-confirm-title" }, message.title));
            if (message.message) dialog.appendChild(element("p", {}, message.message));
            const actions = element("div", { class: "actions" });
            const cancel = element("button", { type: "button" }, message.cancel);
            // A choice that destroys or ends something looks so; Cancel keeps the focus.
            const confirm = element("button", { type: "button", class: message.destructive ? "danger" : "primary" }, message.confirm);
            actions.append(cancel, confirm);
            dialog.appendChild(actions);
            document.body.appendChild(dialog);
            entry.dialog = dialog;
            const answer = (accept) => {
              if (entry.answer !== undefined) return;
              entry.answer = accept;
              closeQuestion(entry);
              if (message.action) sendAnswer(entry);
              else send({ type: "answer", question: entry.question, accept });
            };
            cancel.addEventListener("click", () => answer(false));
            confirm.addEventListener("click", () => answer(true));
            dialog.addEventListener("cancel", (event) => { event.preventDefault(); answer(false); });
            if (message.action) questions.set(message.action, entry);
            dialog.showModal();
            cancel.focus();
          }
          // An answer goes to the server that asked, over the socket it asked on; else it
          // waits for the next server to ask again. It is kept until the action is finished
          // with, so a server that goes away after reading it is answered the same.
          function sendAnswer(entry) {
            if (entry.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
            socket.send(JSON.stringify({ type: "answer", question: entry.question, accept: entry.answer }));
          }
          function closeQuestion(entry) {
            if (!entry.dialog) return;
            entry.dialog.close();
            entry.dialog.remove();
            entry.dialog = null;
          }
          // The server finished with these actions (applied, or refused): their questions end.
          function settleQuestions(keys) {
            for (const key of keys) {
              const entry = questions.get(key);
              if (!entry) continue;
              closeQuestion(entry);
              questions.delete(key);
            }
          }

        """#
}
