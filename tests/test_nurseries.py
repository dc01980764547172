"""A nursery as an implementation detail: a lone error comes out as itself."""

from __future__ import annotations

import pytest
import trio

from dalmuti_net.nurseries import lone_error_as_itself


async def fail(error: BaseException) -> None:
    raise error


async def test_a_lone_error_comes_out_as_itself() -> None:
    with pytest.raises(OSError, match="refused") as caught, lone_error_as_itself():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fail, OSError("refused"))
    assert caught.value.__suppress_context__  # no group shown above it in a traceback


async def test_an_error_of_the_body_itself_comes_out_as_itself() -> None:
    with pytest.raises(KeyboardInterrupt), lone_error_as_itself():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.sleep_forever)
            raise KeyboardInterrupt


async def test_two_errors_stay_a_group() -> None:
    with pytest.raises(BaseExceptionGroup) as caught, lone_error_as_itself():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fail, OSError("one"))
            nursery.start_soon(fail, ValueError("two"))
    assert {type(error) for error in caught.value.exceptions} == {OSError, ValueError}


async def test_a_lone_error_of_a_nursery_inside_a_nursery_comes_out_as_itself() -> None:
    async def inner() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fail, OSError("refused"))

    with pytest.raises(OSError, match="refused"), lone_error_as_itself():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(inner)


def test_a_lone_group_inside_a_group_is_not_unwrapped_to_its_members() -> None:
    inner = ExceptionGroup("inner", [OSError("one"), ValueError("two")])
    with pytest.raises(ExceptionGroup) as caught, lone_error_as_itself():
        raise ExceptionGroup("outer", [inner])
    assert caught.value.exceptions == (inner,)
