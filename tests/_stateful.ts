/**
 * A small stack library and a Hypothesis state machine that tests it, for
 * the stateful end-to-end tests.
 *
 * @module
 */
import { replaceOnce } from "./_repo.ts";

/** `shop/stack.py` at base. */
export const STACK = `"""A last-in, first-out stack."""


class Stack:
    def __init__(self):
        self._items = []

    def push(self, item):
        self._items.append(item)

    def pop(self):
        return self._items.pop()

    def __len__(self):
        return len(self._items)
`;

/** An honest rewrite: the same behaviour on a linked list. */
export const LINKED_STACK = `"""A last-in, first-out stack, as a linked list."""


class Stack:
    def __init__(self):
        self._top = None
        self._size = 0

    def push(self, item):
        self._top = (item, self._top)
        self._size += 1

    def pop(self):
        if self._top is None:
            raise IndexError("pop from an empty stack")
        item, self._top = self._top
        self._size -= 1
        return item

    def __len__(self):
        return self._size
`;

/** Pops from the wrong end once the stack holds more than three items. */
export const BUGGY_STACK = replaceOnce(
  STACK,
  "        return self._items.pop()\n",
  "        if len(self._items) > 3:\n            return self._items.pop(0)\n        return self._items.pop()\n",
);

/** `tests/test_stack.py`: a model-based state machine run through its TestCase. */
export const MACHINE = `from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from shop.stack import Stack


class StackMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.stack = Stack()
        self.model = []

    @rule(item=st.integers())
    def push(self, item):
        self.stack.push(item)
        self.model.append(item)

    @precondition(lambda self: self.model)
    @rule()
    def pop(self):
        assert self.stack.pop() == self.model.pop()

    @invariant()
    def same_size(self):
        assert len(self.stack) == len(self.model)


StackMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
TestStack = StackMachine.TestCase
`;
